#include "compiler/frontend/scalesim_csv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

namespace polyarch::frontend {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::source_path;
using ::testing::HasSubstr;

const std::string kConvHeader =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
    "Strides,\n";

std::vector<ir::Op> ops_of(const ir::Graph& graph) {
  std::vector<ir::Op> ops;
  for (ir::NodeId id : graph.topological_ops()) ops.push_back(graph.op(id));
  return ops;
}

std::optional<Error> conv_row_error(const std::string& row) {
  return capture_error([&] { parse_scalesim_csv(kConvHeader + row + "\n", "t.csv", "t"); });
}

TEST(ScaleSimCsv, ConvRowsBecomeConvOpsWithScaleSimOutputSizes) {
  const ir::Graph graph = load_scalesim_csv(source_path("tests/data/scalesim_csv/conv_small.csv"));
  EXPECT_EQ(graph.name(), "conv_small");
  const std::vector<ir::Op> ops = ops_of(graph);
  ASSERT_EQ(ops.size(), 3u);
  const auto& conv1 = std::get<ir::Conv2dAttrs>(ops[0].attrs);
  EXPECT_EQ(ops[0].name, "Conv1");
  EXPECT_EQ(conv1.h, 34);
  EXPECT_EQ(conv1.c, 3);
  EXPECT_EQ(conv1.k, 16);
  EXPECT_EQ(conv1.stride_h, 2);
  EXPECT_EQ(conv1.stride_w, 2);
  // SCALE-Sim: ofmap = ceil((34 - 3 + 2) / 2) = 17.
  EXPECT_EQ(conv1.out_h(), 17);
  EXPECT_EQ(ir::mac_count(ops[0]), int64_t{17} * 17 * 3 * 3 * 3 * 16);
  EXPECT_EQ(ops[0].where.line, 2);
}

TEST(ScaleSimCsv, DepthwiseLayerBecomesOneGroupedConv) {
  const std::vector<ir::Op> ops =
      ops_of(load_scalesim_csv(source_path("tests/data/scalesim_csv/conv_small.csv")));
  const auto& dp = std::get<ir::Conv2dAttrs>(ops[1].attrs);
  EXPECT_EQ(ops[1].name, "Conv2_DP");
  EXPECT_EQ(dp.groups, 16);
  EXPECT_EQ(dp.c, 16);
  EXPECT_EQ(dp.k, 16);
  EXPECT_EQ(dp.pad_h, 0);
  // SCALE-Sim: 16 one-channel layers of 16x16 outputs, 3x3 window, 1 filter each.
  EXPECT_EQ(ir::mac_count(ops[1]), int64_t{16} * 16 * 16 * 9);
}

TEST(ScaleSimCsv, DepthwiseWithSeveralFiltersPerChannelMultipliesK) {
  const ir::Graph graph =
      parse_scalesim_csv(kConvHeader + "DP1, 10, 10, 3, 3, 8, 2, 1,\n", "t.csv", "t");
  const std::vector<ir::Op> ops = ops_of(graph);  // held: attrs below refer into it
  const auto& dp = std::get<ir::Conv2dAttrs>(ops[0].attrs);
  EXPECT_EQ(dp.groups, 8);
  EXPECT_EQ(dp.k, 16);
}

TEST(ScaleSimCsv, NinthFieldIsTheColumnStride) {
  const std::vector<ir::Op> ops =
      ops_of(load_scalesim_csv(source_path("tests/data/scalesim_csv/conv_small.csv")));
  const auto& conv3 = std::get<ir::Conv2dAttrs>(ops[2].attrs);
  EXPECT_EQ(conv3.stride_h, 1);
  EXPECT_EQ(conv3.stride_w, 2);
  EXPECT_EQ(conv3.out_h(), 16);
  EXPECT_EQ(conv3.out_w(), 9);      // ceil((16 - 1 + 2) / 2)
  EXPECT_EQ(ops[2].where.line, 5);  // the blank line 4 is skipped but counted
}

TEST(ScaleSimCsv, GemmHeaderSelectsGemmFormat) {
  const ir::Graph graph = load_scalesim_csv(source_path("tests/data/scalesim_csv/gemm_small.csv"));
  const std::vector<ir::Op> ops = ops_of(graph);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].name, "QKT");
  const auto& linear = std::get<ir::GemmAttrs>(ops[1].attrs);
  EXPECT_EQ(linear.m, 1024);
  EXPECT_EQ(linear.n, 4800);
  EXPECT_EQ(linear.k, 1600);
  EXPECT_EQ(linear.batch, 1);
}

TEST(ScaleSimCsv, RowsWithoutTrailingCommaAndExtraColumnsAreRead) {
  const ir::Graph graph = parse_scalesim_csv(
      kConvHeader + "A, 8, 8, 3, 3, 4, 4, 1\nB, 8, 8, 1, 1, 4, 4, 1, , , 110, 110, 12100\n",
      "t.csv", "t");
  EXPECT_EQ(graph.op_count(), 2u);
}

TEST(ScaleSimCsv, DuplicateLayerNamesAreKeptAsSCALESimDoes) {
  const ir::Graph graph =
      parse_scalesim_csv("Layer, M, N, K,\nFC, 4, 4, 4,\nFC, 8, 8, 8,\n", "t.csv", "t");
  const std::vector<ir::Op> ops = ops_of(graph);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].name, "FC");
  EXPECT_EQ(ops[1].name, "FC");
}

TEST(ScaleSimCsv, NonNumericFieldNamesLineAndColumn) {
  auto error = conv_row_error("Conv1, 34, x4, 3, 3, 3, 16, 2,");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "expected an integer, got 'x4'");
  EXPECT_EQ(error->where().to_string(), "t.csv:2:11: IFMAP Width");
}

TEST(ScaleSimCsv, MissingFieldsAreNamed) {
  auto error = conv_row_error("Conv1, 34, 34, 3, 3, 3,");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("missing 'Num Filter'"));
  EXPECT_EQ(error->where().line, 2);
  auto gemm =
      capture_error([] { parse_scalesim_csv("Layer, M, N, K,\nG, 4, 4,\n", "g.csv", "g"); });
  ASSERT_TRUE(gemm);
  EXPECT_THAT(gemm->message(), HasSubstr("missing 'K'"));
}

TEST(ScaleSimCsv, ZeroSizesAreRejected) {
  auto error = conv_row_error("Conv1, 34, 34, 3, 3, 0, 16, 2,");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "'Channels' must be positive, got 0");
  EXPECT_EQ(error->where().key_path, "Channels");
}

TEST(ScaleSimCsv, FilterLargerThanIfmapIsRejected) {
  auto error = capture_error(
      [] { load_scalesim_csv(source_path("tests/data/scalesim_csv/bad_filter.csv")); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "filter height 7 is larger than the IFMAP height 5");
  EXPECT_EQ(error->where().line, 3);
  EXPECT_EQ(error->where().key_path, "Filter Height");
}

TEST(ScaleSimCsv, EmptyFileAndHeaderOnlyAreRejected) {
  EXPECT_THAT(capture_error([] { parse_scalesim_csv("", "e.csv", "e"); })->message(),
              HasSubstr("empty"));
  EXPECT_THAT(capture_error([] { parse_scalesim_csv(kConvHeader, "e.csv", "e"); })->message(),
              HasSubstr("no layers"));
}

TEST(ScaleSimCsv, EmptyLayerNameIsRejected) {
  auto error = conv_row_error(", 34, 34, 3, 3, 3, 16, 2,");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "layer name is empty");
}

TEST(ScaleSimCsv, MissingFileIsABadInputError) {
  auto error = capture_error([] { load_scalesim_csv("/nonexistent/topology.csv"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_EQ(error->where().file, "/nonexistent/topology.csv");
}

}  // namespace
}  // namespace polyarch::frontend
