// Precision before/after: the policy's types per op kind, and QDQ models as int8 ops.
#include "compiler/passes/precision.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/pipeline.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;

// x[4,8] -> MatMul(w) -> LayerNormalization -> Softmax -> Relu -> Transpose -> y
OnnxGraphBuilder small_model() {
  OnnxGraphBuilder b;
  b.input("x", {4, 8}).weight("w", {8, 8}).weight("gamma", {8}).weight("beta", {8});
  b.node("MatMul", {"x", "w"}, {"h"}, {}, "matmul");
  b.node("LayerNormalization", {"h", "gamma", "beta"}, {"n"}, {}, "norm");
  b.node("Softmax", {"n"}, {"s"}, {}, "softmax");
  b.node("Relu", {"s"}, {"r"}, {}, "relu");
  b.node("Transpose", {"r"}, {"y"}, {{"perm", std::vector<int64_t>{1, 0}}}, "transpose");
  b.output("y");
  return b;
}

std::map<std::string, const ir::Op*> ops_by_name(const ir::Graph& graph) {
  std::map<std::string, const ir::Op*> ops;
  for (ir::NodeId id : graph.topological_ops()) ops[graph.op(id).name] = &graph.op(id);
  return ops;
}

TEST(PrecisionPolicy, Bf16KeepsSoftmaxAndNormInFp32UnlessOverridden) {
  const PrecisionPolicy policy = parse_precision_policy("bf16");
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kGemm), ir::DType::kBf16);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kSoftmax), ir::DType::kFp32);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kNorm), ir::DType::kFp32);
  EXPECT_EQ(parse_precision_policy("bf16,softmax=bf16").dtype_for(ir::OpKind::kSoftmax),
            ir::DType::kBf16);
}

TEST(PrecisionPolicy, Int8QuantisesOnlyMatrixOpsByDefault) {
  const PrecisionPolicy policy = parse_precision_policy("int8,pool=int8");
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kConv2d), ir::DType::kInt8);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kGemm), ir::DType::kInt8);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kElementwise), ir::DType::kFp32);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kPool), ir::DType::kInt8);
}

TEST(PrecisionPolicy, BadTextNamesTheFlagAndThePart) {
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("fp8"); }),
              HasSubstr("--precision fp8: 'fp8' is not a precision"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("bf16,conv=fp32"); }),
              HasSubstr("'conv=fp32' is not KIND=DTYPE"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("bf16,gemm=int64"); }),
              HasSubstr("'int64' is not a precision"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy(""); }),
              HasSubstr("--precision needs a type"));
}

TEST(PrecisionPass, RetypesFloatOpsByKindAndRescalesCopies) {
  OnnxGraphBuilder b = small_model();
  lower::standard_pipeline().run(b.graph);
  const int64_t fp32_copy_bytes =
      std::get<ir::CopyAttrs>(ops_by_name(b.graph).at("transpose")->attrs).bytes;
  const PassStatistics statistics =
      PrecisionPass(parse_precision_policy("bf16")).run(b.graph);
  const auto ops = ops_by_name(b.graph);
  EXPECT_EQ(ops.at("matmul")->dtype, ir::DType::kBf16);
  EXPECT_EQ(ops.at("norm")->dtype, ir::DType::kFp32);
  EXPECT_EQ(ops.at("softmax")->dtype, ir::DType::kFp32);
  EXPECT_EQ(ops.at("relu")->dtype, ir::DType::kBf16);
  EXPECT_EQ(std::get<ir::CopyAttrs>(ops.at("transpose")->attrs).bytes, fp32_copy_bytes / 2);
  EXPECT_EQ(statistics.get("changed"), 3);
  EXPECT_EQ(statistics.get("qdq int8"), 0);
}

TEST(PrecisionPass, WithoutAPolicyNothingChanges) {
  OnnxGraphBuilder b = small_model();
  lower::standard_pipeline().run(b.graph);
  const std::string before = ir::print_graph(b.graph);
  EXPECT_EQ(PrecisionPass().run(b.graph).get("changed"), 0);
  EXPECT_EQ(ir::print_graph(b.graph), before);
}

TEST(PrecisionPass, IntegerOpsKeepTheirType) {
  OnnxGraphBuilder b;
  b.input("ids", {4}, ir::DType::kInt64);
  b.node("Neg", {"ids"}, {"y"}, {}, "neg");
  b.output("y");
  lower::standard_pipeline({.precision = parse_precision_policy("fp16")}).run(b.graph);
  EXPECT_EQ(ops_by_name(b.graph).at("neg")->dtype, ir::DType::kInt64);
}

TEST(PrecisionPass, QdqModelsConvolutionsAndGemmsAreInt8WhateverThePolicyAndLayout) {
  for (const std::optional<ir::Layout> layout :
       {std::optional<ir::Layout>(), std::optional<ir::Layout>(ir::Layout::kNhwc)}) {
    ir::Graph graph =
        frontend::load_workload(testing::source_path("tests/data/onnx/tiny_cnn_int8_qdq.onnx"));
    const std::vector<PassRecord> records = lower::standard_pipeline(
        {.precision = parse_precision_policy("bf16"), .conv_layout = layout}).run(graph);
    int64_t matrix_ops = 0;  // 4 convolutions and the classifier, all quantised
    int64_t int8_ops = 0;
    for (ir::NodeId id : graph.topological_ops()) {
      const ir::Op& op = graph.op(id);
      if (op.kind() != ir::OpKind::kConv2d && op.kind() != ir::OpKind::kGemm) continue;
      ++matrix_ops;
      int8_ops += op.dtype == ir::DType::kInt8 ? 1 : 0;
    }
    EXPECT_EQ(matrix_ops, 5);
    EXPECT_EQ(int8_ops, matrix_ops) << "layout " << layout.has_value();
    for (const PassRecord& record : records) {
      if (record.pass == "precision") {
        EXPECT_EQ(record.statistics.get("qdq int8"), matrix_ops);
      }
    }
  }
}

}  // namespace
}  // namespace polyarch::passes
