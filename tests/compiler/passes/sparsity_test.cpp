// Sparsity annotation before/after, its measurement, its policy and what it saves in bytes.
#include "compiler/passes/sparsity.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "compiler/frontend/workload_loader.h"
#include "compiler/ir/weight_sparsity.h"
#include "compiler/lower/pipeline.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;

// Gives the weight fp32 contents.
void set_values(OnnxGraphBuilder& b, const std::string& name, const std::vector<float>& values) {
  ir::Tensor& tensor = b.tensor(name);
  tensor.external_data_missing = false;
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  tensor.data = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
}

// 2:4 along k for a [K=8, N=2] MatMul weight: in each column, every 4 consecutive rows keep 2.
std::vector<float> two_of_four_kn() {
  std::vector<float> w(16, 0.0f);
  for (int k = 0; k < 8; ++k) {
    for (int n = 0; n < 2; ++n) {
      if ((k + n) % 4 < 2) w[k * 2 + n] = 1.0f + static_cast<float>(k);
    }
  }
  return w;
}

const ir::Op& only_gemm(const ir::Graph& graph) {
  for (ir::NodeId id : graph.topological_ops()) {
    if (graph.op(id).kind() == ir::OpKind::kGemm) return graph.op(id);
  }
  throw std::runtime_error("no gemm");
}

TEST(SparsityMeasure, FindsTheDensityAndTheTightestPatternAlongTheReduction) {
  const std::vector<float> weights = two_of_four_kn();
  const ir::WeightSparsity sparsity =
      measure_weight_sparsity(std::vector<double>(weights.begin(), weights.end()), 1, 8, 2);
  EXPECT_DOUBLE_EQ(sparsity.density, 0.5);
  EXPECT_EQ(sparsity.n, 2);
  EXPECT_EQ(sparsity.m, 4);
}

TEST(SparsityMeasure, ZerosOutOfPatternAreUnstructured) {
  // Half zeros, but one group of four along k is full.
  const std::vector<double> values = {1, 1, 1, 1, 0, 0, 0, 0};
  const ir::WeightSparsity sparsity = measure_weight_sparsity(values, 1, 8, 1);
  EXPECT_DOUBLE_EQ(sparsity.density, 0.5);
  EXPECT_FALSE(sparsity.structured());
}

TEST(SparsityPass, MeasuresAMatMulWeightAndLeavesDenseOnesAlone) {
  OnnxGraphBuilder b;
  b.input("x", {3, 8}).weight("w", {8, 2}).weight("dense", {2, 2});
  set_values(b, "w", two_of_four_kn());
  set_values(b, "dense", {1, 2, 3, 4});
  b.node("MatMul", {"x", "w"}, {"h"}, {}, "pruned");
  b.node("MatMul", {"h", "dense"}, {"y"}, {}, "dense");
  b.output("y");
  const std::vector<PassRecord> records = lower::standard_pipeline().run(b.graph);
  const PassRecord& sparsity = records.at(records.size() - 2);
  EXPECT_EQ(sparsity.pass, "sparsity");
  EXPECT_EQ(sparsity.statistics.get("measured"), 2);
  EXPECT_EQ(sparsity.statistics.get("structured"), 1);
  const std::string ir = ir::print_graph(b.graph);
  EXPECT_THAT(ir, HasSubstr(":fp32 fp32 sparsity=2:4 density=0.5 input=signed from onnx:MatMul\n"));
  EXPECT_THAT(ir, HasSubstr("%dense = gemm(%h[3,2], %dense[2,2]) m=3 n=2 k=2 batch=1 -> "));
}

TEST(SparsityPass, GemmWithTransposedWeightsGroupsAlongItsLastAxis) {
  OnnxGraphBuilder b;
  b.input("x", {3, 8}).weight("w", {2, 8});  // [N, K]
  std::vector<float> transposed(16);
  const std::vector<float> kn = two_of_four_kn();
  for (int k = 0; k < 8; ++k) {
    for (int n = 0; n < 2; ++n) transposed[n * 8 + k] = kn[k * 2 + n];
  }
  set_values(b, "w", transposed);
  b.node("Gemm", {"x", "w"}, {"y"}, {{"transB", int64_t{1}}});
  b.output("y");
  lower::standard_pipeline().run(b.graph);
  ASSERT_TRUE(only_gemm(b.graph).weight_sparsity);
  EXPECT_EQ(only_gemm(b.graph).weight_sparsity->n, 2);
}

TEST(SparsityPass, StructureOnlyWeightsTakeThePolicy) {
  for (const auto& [text, n, density] :
       {std::tuple{"2:4", int64_t{2}, 0.5}, std::tuple{"0.25", int64_t{0}, 0.25}}) {
    OnnxGraphBuilder b;
    b.input("x", {3, 8}).weight("w", {8, 2});  // no values
    b.node("MatMul", {"x", "w"}, {"y"});
    b.output("y");
    lower::standard_pipeline({.sparsity = parse_sparsity_policy(text)}).run(b.graph);
    ASSERT_TRUE(only_gemm(b.graph).weight_sparsity) << text;
    EXPECT_EQ(only_gemm(b.graph).weight_sparsity->n, n) << text;
    EXPECT_DOUBLE_EQ(only_gemm(b.graph).weight_sparsity->density, density) << text;
  }
  OnnxGraphBuilder b;
  b.input("x", {3, 8}).weight("w", {8, 2});
  b.node("MatMul", {"x", "w"}, {"y"});
  b.output("y");
  lower::standard_pipeline().run(b.graph);
  EXPECT_FALSE(only_gemm(b.graph).weight_sparsity) << "no policy: dense";
}

TEST(SparsityPass, QdqWeightsAreMeasuredThroughTheirDequantize) {
  // Quantised to int8, small weights round to zero: the int8 initializers hold real zeros.
  ir::Graph graph =
      frontend::load_workload(testing::source_path("tests/data/onnx/tiny_cnn_int8_qdq.onnx"));
  const std::vector<PassRecord> records = lower::standard_pipeline().run(graph);
  const PassRecord& sparsity = records.at(records.size() - 2);
  ASSERT_EQ(sparsity.pass, "sparsity");
  EXPECT_EQ(sparsity.statistics.get("measured"), 5);
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::Op& op = graph.op(id);
    if (op.weight_sparsity) {
      EXPECT_GT(op.weight_sparsity->density, 0.0) << op.name;
      EXPECT_LT(op.weight_sparsity->density, 1.0) << op.name;
    }
  }
}

TEST(SparsityPolicy, BadTextIsAnErrorNamingTheFlag) {
  for (const char* text : {"4:2", "2:4x", "0", "1.5", "abc", "2:128", ":4"}) {
    EXPECT_THAT(testing::error_text([&] { parse_sparsity_policy(text); }),
                HasSubstr("--sparsity " + std::string(text) + ": expected N:M"))
        << text;
  }
}

TEST(WeightSparsityCost, CompressedWeightsReadFewerBytes) {
  // 2:4 fp16: half the values plus 2 index bits per kept value.
  EXPECT_EQ(ir::stored_weight_bytes(1024, ir::DType::kFp16, {0.5, 2, 4}), 512 * 2 + 512 * 2 / 8);
  // Unstructured fp32 at density 0.25: the nonzeros and a bitmask.
  EXPECT_EQ(ir::stored_weight_bytes(1024, ir::DType::kFp32, {0.25, 0, 0}), 256 * 4 + 1024 / 8);
  // int8 at density 0.95: a bitmask would cost more than it saves.
  EXPECT_EQ(ir::stored_weight_bytes(1024, ir::DType::kInt8, {0.95, 0, 0}), 1024);
}

TEST(WeightSparsityCost, BytesTouchedSwapsDenseWeightsForStoredOnes) {
  ir::GemmAttrs attrs;
  attrs.m = 16;
  attrs.n = 64;
  attrs.k = 64;
  ir::Op gemm;
  gemm.attrs = attrs;
  gemm.dtype = ir::DType::kFp16;
  const int64_t dense = ir::bytes_touched(gemm);
  gemm.weight_sparsity = ir::WeightSparsity{0.5, 2, 4};
  EXPECT_EQ(dense - ir::bytes_touched(gemm),
            64 * 64 * 2 - ir::stored_weight_bytes(64 * 64, ir::DType::kFp16, *gemm.weight_sparsity));
}

}  // namespace
}  // namespace polyarch::passes
