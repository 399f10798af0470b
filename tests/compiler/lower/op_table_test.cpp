// Totals of the lowered test models against hand counts and published figures.
#include "compiler/lower/op_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/pipeline.h"
#include "compiler/passes/pass_manager.h"
#include "tests/base/error_capture.h"

namespace polyarch::lower {
namespace {

using ::testing::HasSubstr;

ir::Graph compiled(const std::string& model) {
  ir::Graph graph = frontend::load_onnx(testing::source_path("tests/data/onnx/" + model));
  standard_pipeline().run(graph);
  return graph;
}

std::map<std::string, int64_t> kind_counts(const ir::Graph& graph) {
  std::map<std::string, int64_t> counts;
  for (ir::NodeId id : graph.topological_ops()) ++counts[ir::op_type_name(graph.op(id))];
  return counts;
}

void expect_within_two_percent(int64_t measured, double published, const char* what) {
  EXPECT_NEAR(static_cast<double>(measured), published, 0.02 * published) << what;
}

TEST(OpTable, MacsByTypeNameTheStorageOfWeightsAndKvCaches) {
  // A layer list: an fp16 gemm with int4 weights (8 x 64 x 32), a bf16 gemm (4 x 4 x 4), and a
  // bf16 decode attention over 100 cached fp8 tokens (2 heads, d 16: 2 products of 100 x 16
  // MACs per head).
  const std::string path = ::testing::TempDir() + "/macs_by_type.yaml";
  std::ofstream(path) << "name: t\nlayers:\n"
                         "  - {name: w4, op: gemm, m: 8, n: 64, k: 32, dtype: fp16, "
                         "weight_dtype: int4, weight_group: 16}\n"
                         "  - {name: plain, op: gemm, m: 4, n: 4, k: 4, dtype: bf16}\n"
                         "  - {name: decode, op: attention, h: 2, s: 1, kv_len: 100, d: 16, "
                         "dtype: bf16, kv_dtype: fp8}\n";
  const GraphTotals totals = graph_totals(frontend::load_workload(path));
  EXPECT_EQ(totals.macs_by_type,
            (std::map<std::string, int64_t>{{"fp16 (int4 weights)", 8 * 64 * 32},
                                            {"bf16", 4 * 4 * 4},
                                            {"bf16 (fp8_e4m3 KV)", 2 * 2 * 100 * 16}}));
  EXPECT_THAT(format_op_table(op_rows(frontend::load_workload(path)), totals),
              HasSubstr("MACs by type: bf16 64 (0.000 G), bf16 (fp8_e4m3 KV) 6400 (0.000 G), "
                        "fp16 (int4 weights) 16384 (0.000 G)\n"));
}

TEST(OpTable, TinyCnnMacsAndParametersByHand) {
  const GraphTotals totals = graph_totals(compiled("tiny_cnn.onnx"));
  // c1 3->16 3x3 at 32x32; c2 16->32 3x3 stride 2 to 16x16; depthwise 32 3x3 at 16x16;
  // pointwise 32->32 at 16x16; fc 32->10.
  const int64_t macs = int64_t{16} * 32 * 32 * 3 * 9 + int64_t{32} * 16 * 16 * 16 * 9 +
                       int64_t{32} * 16 * 16 * 9 + int64_t{32} * 16 * 16 * 32 + 32 * 10;
  EXPECT_EQ(totals.macs, macs);
  const int64_t parameters =
      (16 * 3 * 9 + 16) + (32 * 16 * 9 + 32) + (32 * 9 + 32) + (32 * 32 + 32) + (10 * 32 + 10);
  EXPECT_EQ(totals.parameters, parameters);
}

TEST(OpTable, ResNet50MatchesPublishedMacsAndParameters) {
  const ir::Graph graph = compiled("resnet50.onnx");
  const GraphTotals totals = graph_totals(graph);
  expect_within_two_percent(totals.macs, 4.1e9, "MACs");
  expect_within_two_percent(totals.parameters, 25.6e6, "parameters");
  EXPECT_EQ(kind_counts(graph)["conv2d"], 53);
  EXPECT_EQ(kind_counts(graph)["gemm"], 1);
  EXPECT_EQ(kind_counts(graph).count("frontend"), 0u);
}

TEST(OpTable, BertBaseMatchesPublishedMacsAndParameters) {
  const ir::Graph graph = compiled("bert_base.onnx");
  const GraphTotals totals = graph_totals(graph);
  // Embedding lookups do no MACs, so the total is the encoder's at seq 128.
  expect_within_two_percent(totals.macs, 11.2e9, "MACs");
  expect_within_two_percent(totals.parameters, 110e6, "parameters");
  const auto counts = kind_counts(graph);
  EXPECT_EQ(counts.at("gemm"), 72);       // 12 layers x (Q, K, V, O, 2 FFN)
  EXPECT_EQ(counts.at("attention"), 12);  // QK^T, softmax and PV fused
  EXPECT_EQ(counts.at("embedding"), 3);
  EXPECT_EQ(counts.at("norm"), 25);
  EXPECT_EQ(counts.count("softmax"), 0u);  // inside the attentions
}

TEST(OpTable, EveryTestModelLowersCompletely) {
  for (const char* model : {"tiny_cnn.onnx", "tiny_cnn_unfolded.onnx", "tiny_cnn_int8_qdq.onnx",
                            "bert_tiny.onnx", "gpt2.onnx"}) {
    const ir::Graph graph = compiled(model);
    for (ir::NodeId id : graph.topological_ops()) {
      EXPECT_NE(graph.op(id).kind(), ir::OpKind::kFrontend) << model << ": " << graph.op(id).name;
    }
  }
}

TEST(OpTable, RowsAndTotalsFormat) {
  const ir::Graph graph = compiled("tiny_cnn.onnx");
  const std::vector<OpRow> rows = op_rows(graph);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().kind, "conv2d");
  EXPECT_EQ(rows.front().shape, "[1,3,32,32] -> [1,16,32,32]");
  EXPECT_EQ(rows.front().macs, int64_t{16} * 32 * 32 * 27);
  // The bias addition and the fused ReLU, one operation each per output.
  EXPECT_EQ(rows.front().flops, 2 * rows.front().macs + 2 * 16 * 32 * 32);
  const std::string text = format_op_table(rows, graph_totals(graph));
  EXPECT_THAT(text, HasSubstr("total MACs: 1958208"));
  EXPECT_THAT(text, HasSubstr("total parameters: 6794"));
}

}  // namespace
}  // namespace polyarch::lower
