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

TEST(PrecisionPolicy, Fp8RunsMatrixOpsInFp8TheRestInBf16AndSoftmaxAndNormInFp32) {
  const PrecisionPolicy policy = parse_precision_policy("fp8");
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kGemm), ir::DType::kFp8E4M3);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kConv2d), ir::DType::kFp8E4M3);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kAttention), ir::DType::kBf16);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kElementwise), ir::DType::kBf16);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kSoftmax), ir::DType::kFp32);
  EXPECT_EQ(policy.dtype_for(ir::OpKind::kNorm), ir::DType::kFp32);
  EXPECT_EQ(parse_precision_policy("fp8_e5m2").dtype_for(ir::OpKind::kGemm),
            ir::DType::kFp8E5M2);
}

TEST(PrecisionPolicy, SchemesSetActivationsWeightsAndKvCache) {
  const PrecisionPolicy w4a16 = parse_precision_policy("w4a16");
  EXPECT_EQ(w4a16.target, ir::DType::kFp16);
  ASSERT_TRUE(w4a16.weights.has_value());
  EXPECT_EQ(w4a16.weights->dtype, ir::DType::kInt4);
  EXPECT_EQ(w4a16.weights->group, 128);
  const PrecisionPolicy spelled =
      parse_precision_policy("weights=int4:g64,activations=bf16,kv_cache=fp8");
  EXPECT_EQ(spelled.target, ir::DType::kBf16);
  EXPECT_EQ(spelled.weights->group, 64);
  EXPECT_EQ(spelled.kv_cache, ir::DType::kFp8E4M3);
  EXPECT_EQ(spelled.dtype_for(ir::OpKind::kSoftmax), ir::DType::kFp32);  // bf16's defaults
  EXPECT_EQ(parse_precision_policy("w8a16").weights->group, 0);  // one scale per channel
  EXPECT_EQ(parse_precision_policy("w8a8").target, ir::DType::kInt8);
  EXPECT_EQ(parse_precision_policy("bf16,kv_cache=int4").kv_cache, ir::DType::kInt4);
  // Alone, a storage part leaves the model's compute types as they are.
  EXPECT_FALSE(parse_precision_policy("kv_cache=int8").target.has_value());
}

TEST(PrecisionPolicy, BadTextNamesTheFlagAndThePart) {
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("fp6"); }),
              HasSubstr("--precision fp6: 'fp6' is not a precision"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("int4"); }),
              HasSubstr("'int4' is a storage format, not a type ops compute in"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("fp16,weights=int4:128"); }),
              HasSubstr("'int4:128' needs a group as :gN"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("fp16,weights=fp16"); }),
              HasSubstr("'fp16' is not a weight format"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("bf16,fp16"); }),
              HasSubstr("'fp16' sets the precision a second time"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("bf16,conv=fp32"); }),
              HasSubstr("'conv=fp32' is not a precision, a scheme"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("bf16,gemm=int64"); }),
              HasSubstr("'int64' is not a precision"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy(""); }),
              HasSubstr("--precision needs a type"));
  EXPECT_THAT(testing::error_text([] { parse_precision_policy("bf16,kv_cache=int64"); }),
              HasSubstr("'int64' is not a precision"));
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

TEST(PrecisionPass, StoresWeightsAndKvCachesNarrowerThanTheOpsType) {
  OnnxGraphBuilder b = small_model();
  lower::standard_pipeline().run(b.graph);
  const PassStatistics statistics =
      PrecisionPass(parse_precision_policy("w4a16")).run(b.graph);
  const auto ops = ops_by_name(b.graph);
  ASSERT_TRUE(ops.at("matmul")->weight_format.has_value());
  EXPECT_EQ(ops.at("matmul")->weight_format->dtype, ir::DType::kInt4);
  EXPECT_EQ(ops.at("matmul")->weight_format->group, 128);
  EXPECT_FALSE(ops.at("norm")->weight_format.has_value());  // only gemm and conv2d weights
  EXPECT_EQ(statistics.get("weights stored narrower"), 1);

  // int8 weights of an int8 op are the op's own type: nothing to store narrower.
  OnnxGraphBuilder int8 = small_model();
  lower::standard_pipeline().run(int8.graph);
  EXPECT_EQ(PrecisionPass(parse_precision_policy("w8a8,weights=int8"))
                .run(int8.graph)
                .get("weights stored narrower"),
            0);
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
