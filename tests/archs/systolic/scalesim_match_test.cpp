// Holds the tile model to SCALE-Sim v2's reported "Total Cycles" (no stalls) for ResNet-50
// convolutions and BERT-base GEMMs on several arrays and all three dataflows. The golden rows
// come from running SCALE-Sim itself: tests/data/scalesim/PROVENANCE.md.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "archs/systolic/cost_model.h"

namespace polyarch::archs::systolic {
namespace {

using Row = std::map<std::string, std::string>;

std::vector<Row> read_csv(const std::string& relative_path) {
  const std::string path = std::string(POLYARCH_SOURCE_DIR) + "/" + relative_path;
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  std::vector<Row> rows;
  std::string line;
  std::vector<std::string> header;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
    if (header.empty()) {
      header = fields;
      continue;
    }
    Row row;
    for (size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

int64_t number(const Row& row, const std::string& key) { return std::stoll(row.at(key)); }

SystolicParams scalesim_array(const Row& row) {
  SystolicParams params;
  params.name = "scalesim";
  params.rows = number(row, "array_rows");
  params.cols = number(row, "array_cols");
  const std::string& dataflow = row.at("dataflow");
  params.dataflow = dataflow == "os"   ? Dataflow::kOutputStationary
                    : dataflow == "is" ? Dataflow::kInputStationary
                                       : Dataflow::kWeightStationary;
  params.scalesim_compat = true;
  return params;
}

// SCALE-Sim's output size is ceil((H - R + stride) / stride) (topology_utils.py,
// topo_calc_hyperparams): a strided window that would run off the (already padded) ifmap
// still produces an output. The IR floors, so the op gets the smallest symmetric padding that
// yields SCALE-Sim's output size; padding changes no cycle count, only which inputs are zero.
int64_t scalesim_output_size(int64_t input, int64_t window, int64_t stride) {
  return (input - window + stride + stride - 1) / stride;
}

int64_t padding_for(int64_t input, int64_t window, int64_t stride) {
  const int64_t deficit =
      (scalesim_output_size(input, window, stride) - 1) * stride - (input - window);
  return (deficit + 1) / 2;
}

ir::Op scalesim_conv(const Row& row) {
  const int64_t stride = number(row, "stride");
  ir::Conv2dAttrs conv{.n = 1,
                       .c = number(row, "channels"),
                       .h = number(row, "ifmap_h"),
                       .w = number(row, "ifmap_w"),
                       .k = number(row, "num_filters"),
                       .r = number(row, "filter_h"),
                       .s = number(row, "filter_w"),
                       .stride_h = stride,
                       .stride_w = stride};
  conv.pad_h = padding_for(conv.h, conv.r, stride);
  conv.pad_w = padding_for(conv.w, conv.s, stride);
  EXPECT_EQ(conv.out_h(), scalesim_output_size(conv.h, conv.r, stride));
  EXPECT_EQ(conv.out_w(), scalesim_output_size(conv.w, conv.s, stride));
  ir::Op op;
  op.name = row.at("layer");
  op.attrs = conv;
  return op;
}

std::string describe(const Row& row) {
  return row.at("layer") + " on " + row.at("array_rows") + "x" + row.at("array_cols") + " " +
         row.at("dataflow");
}

TEST(SystolicScaleSimMatch, ResNet50ConvolutionsMatchScaleSimTotalCycles) {
  const std::vector<Row> rows = read_csv("tests/data/scalesim/resnet50_conv.csv");
  EXPECT_GE(rows.size(), 187u);  // PROVENANCE.md lists them
  for (const Row& row : rows) {
    SCOPED_TRACE(describe(row));
    ASSERT_EQ(number(row, "stall_cycles"), 0);
    const ir::Op op = scalesim_conv(row);
    EXPECT_EQ(plan_op(scalesim_array(row), op).compute_cycles, number(row, "total_cycles"));
  }
}

TEST(SystolicScaleSimMatch, BertBaseGemmsMatchScaleSimTotalCycles) {
  const std::vector<Row> rows = read_csv("tests/data/scalesim/bert_base_gemm.csv");
  EXPECT_GE(rows.size(), 39u);  // PROVENANCE.md lists them
  for (const Row& row : rows) {
    SCOPED_TRACE(describe(row));
    ASSERT_EQ(number(row, "stall_cycles"), 0);
    ir::Op op;
    op.name = row.at("layer");
    op.attrs = ir::GemmAttrs{.m = number(row, "m"), .n = number(row, "n"), .k = number(row, "k")};
    EXPECT_EQ(plan_op(scalesim_array(row), op).compute_cycles, number(row, "total_cycles"));
  }
}

}  // namespace
}  // namespace polyarch::archs::systolic
