// Ops computing in the formats the precision pass gives them, run through the interpreter on
// small graphs whose results are derived by hand: a w4a16 matmul with int4 weights in groups of
// 2, ties to even inside an fp8 gemm, bf16 rounding of operands and results, a w8a8 product, an
// attention reading an int4 KV cache; a QDQ model computes as it did, and types without an
// emulation are refused by name.
#include "compiler/interp/format_emulation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/error.h"
#include "compiler/interp/interpreter.h"
#include "compiler/lower/pipeline.h"
#include "compiler/passes/tensor_values.h"
#include "tests/compiler/interp/reference_models.h"

namespace polyarch::interp {
namespace {

ir::Tensor float_tensor(const std::string& name, Shape shape, ir::TensorRole role) {
  ir::Tensor tensor;
  tensor.name = name;
  tensor.shape = std::move(shape);
  tensor.dtype = ir::DType::kFp32;
  tensor.role = role;
  return tensor;
}

ir::Tensor weight(const std::string& name, Shape shape, const std::vector<double>& values) {
  ir::Tensor tensor = float_tensor(name, shape, ir::TensorRole::kWeight);
  passes::Values stored = passes::empty_values(ir::DType::kFp32, shape);
  stored.reals = values;
  passes::store_values(stored, tensor);
  return tensor;
}

// y = a [m, k] x w [k, n], a canonical gemm of type `dtype`.
ir::Graph matmul_graph(int64_t m, int64_t k, int64_t n, const std::vector<double>& weights,
                       ir::DType dtype, std::optional<ir::WeightFormat> format = std::nullopt) {
  ir::Graph graph("matmul");
  const ir::NodeId a = graph.add_tensor(float_tensor("a", {m, k}, ir::TensorRole::kActivation));
  const ir::NodeId w = graph.add_tensor(weight("w", {k, n}, weights));
  ir::Op op;
  op.name = "mm";
  op.attrs = ir::GemmAttrs{m, n, k};
  op.dtype = dtype;
  op.weight_format = format;
  const ir::NodeId mm = graph.add_op(op);
  const ir::NodeId y = graph.add_tensor(float_tensor("y", {m, n}, ir::TensorRole::kOutput));
  graph.connect(a, mm);
  graph.connect(w, mm);
  graph.connect(mm, y);
  return graph;
}

std::vector<float> run(const ir::Graph& graph, std::vector<float> a, Shape shape,
                       Numerics numerics = Numerics::kOpFormats) {
  DenseTensor input;
  input.shape = std::move(shape);
  input.values = std::move(a);
  return run_graph(graph, {{"a", input}}, nullptr, numerics).at(0).tensor.values;
}

TEST(FormatEmulation, W4A16MatmulWithInt4WeightsInGroupsOfTwo) {
  // w [4, 2]: column 0 {2.5, -7 | 0.9, 3.5}, column 1 {1, 0.75 | -14, 6}. Groups of 2 along k
  // with fp16 scales 1, 0.5 | s = fp16(1/7) = 0.142822265625 = 585 x 2^-12, 2 give
  // column 0 {2, -7 | 1, 3.5} and column 1 {7s, 5s | -14, 6}. In fp16 7s = 4095 x 2^-12 ties
  // (step 2^-11) to the even 1.0 and 5s = 2925 x 2^-12 to 1462 x 2^-11 = 0.7138671875.
  // a = {1, 2, 3, 4}, {-1, 0.5, 2, -3} (fp16 exact):
  //   row 0: 2 - 14 + 3 + 14 = 5;  1 + 1.427734375 - 42 + 24 = -15.572265625 -> fp16 (step
  //   2^-7) -15.5703125;
  //   row 1: -2 - 3.5 + 2 - 10.5 = -14;  -1 + 0.35693359375 - 28 - 18 = -46.64306640625 ->
  //   fp16 (step 2^-5) -46.65625.
  const ir::Graph graph = matmul_graph(2, 4, 2, {2.5, 1, -7, 0.75, 0.9, -14, 3.5, 6},
                                       ir::DType::kFp16, ir::WeightFormat{ir::DType::kInt4, 2});
  const std::vector<float> a = {1, 2, 3, 4, -1, 0.5f, 2, -3};
  EXPECT_EQ(run(graph, a, {2, 4}), (std::vector<float>{5.0f, -15.5703125f, -14.0f, -46.65625f}));
  // fp32: 2.5 - 14 + 2.7 + 14 = 5.2, 1 + 1.5 - 42 + 24 = -15.5, -2.5 - 3.5 + 1.8 - 10.5 =
  // -14.7, -1 + 0.375 - 28 - 18 = -46.625.
  const std::vector<float> ideal = run(graph, a, {2, 4}, Numerics::kFp32);
  const std::vector<float> expected = {5.2f, -15.5f, -14.7f, -46.625f};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(ideal[i], expected[i], 1e-5);
}

TEST(FormatEmulation, Fp8GemmRoundsItsOperandsToNearestEven) {
  // a = {448, 17, 21}: amax 448, scale 1; E4M3's step in [16, 32) is 2, so 17 ties down to 16
  // (mantissa 000) and 21 down to 20 (010). w = {0, 448}, {1, 0}, {1, 0}: scale 1, exact.
  // Column 0: 16 + 20 = 36 (fp32: 38); column 1: 448 x 448 = 200704 = 196 x 2^10, exact in
  // bf16, the type an fp8 gemm writes.
  const ir::Graph graph = matmul_graph(1, 3, 2, {0, 448, 1, 0, 1, 0}, ir::DType::kFp8E4M3);
  EXPECT_EQ(run(graph, {448, 17, 21}, {1, 3}), (std::vector<float>{36.0f, 200704.0f}));
  EXPECT_EQ(run(graph, {448, 17, 21}, {1, 3}, Numerics::kFp32),
            (std::vector<float>{38.0f, 200704.0f}));
}

TEST(FormatEmulation, Fp8GemmRescalesItsSumThenAddsTheBiasAndAppliesItsActivation) {
  // a = {7, -1, 0.3}: scale 7 / 448 = 1/64, fp8 values {448, -64, 19.2 -> 20} (step 2 in
  // [16, 32)). w = {2, 0.5, -1}: scale 2 / 448 = 1/224, values {448, 112, -224} (exact in E4M3).
  // Sum 200704 - 7168 - 4480 = 189056, times 1/64 x 1/224: 13.1875; plus the bias 0.5 and
  // through the fused ReLU: 13.6875 = 1101.1011b, exact in bf16. fp32: 14 - 0.5 - 0.3 + 0.5.
  ir::Graph graph = matmul_graph(1, 3, 1, {2, 0.5, -1}, ir::DType::kFp8E4M3);
  const ir::NodeId mm = graph.topological_ops().at(0);
  auto& gemm = std::get<ir::GemmAttrs>(graph.op(mm).attrs);
  gemm.bias = true;
  gemm.activation = ir::Activation{"relu", {}};
  graph.connect(graph.add_tensor(weight("bias", {1}, {0.5})), mm);
  EXPECT_EQ(run(graph, {7, -1, 0.3f}, {1, 3}), (std::vector<float>{13.6875f}));
  EXPECT_NEAR(run(graph, {7, -1, 0.3f}, {1, 3}, Numerics::kFp32).at(0), 13.7f, 1e-5);
  // A negative sum stays zero through the ReLU: the activation runs after the rescale and bias.
  EXPECT_EQ(run(graph, {-7, 1, -0.3f}, {1, 3}), (std::vector<float>{0.0f}));
}

TEST(FormatEmulation, Bf16RoundsOperandsAndTheResult) {
  // a = {1 + 3 x 2^-8, 3 x 2^-8}: bf16 ties the first up to 1 + 2^-6 and keeps the second.
  // w = {1, 1}: the sum 1.015625 + 0.01171875 = 1 + 7 x 2^-8 = 1 + 3.5 x 2^-7 ties to the
  // even 1 + 4 x 2^-7 = 1.03125. fp32: 1.0234375.
  const ir::Graph graph = matmul_graph(1, 2, 1, {1, 1}, ir::DType::kBf16);
  const std::vector<float> a = {1.01171875f, 0.01171875f};
  EXPECT_EQ(run(graph, a, {1, 2}), (std::vector<float>{1.03125f}));
  EXPECT_EQ(run(graph, a, {1, 2}, Numerics::kFp32), (std::vector<float>{1.0234375f}));
}

TEST(FormatEmulation, W8A8QuantisesActivationsPerTensorAndWeightsPerChannel) {
  // a = {127, 1.5, 0.5}: scale 1, codes 127, 2, 0 (ties to even). w = {127, 63.5, 0}: one
  // channel, scale 1, codes 127, 64, 0. 127 x 127 + 2 x 64 = 16257; fp32: 16129 + 95.25.
  const ir::Graph graph = matmul_graph(1, 3, 1, {127, 63.5, 0}, ir::DType::kInt8);
  EXPECT_EQ(run(graph, {127, 1.5f, 0.5f}, {1, 3}), (std::vector<float>{16257.0f}));
  EXPECT_EQ(run(graph, {127, 1.5f, 0.5f}, {1, 3}, Numerics::kFp32),
            (std::vector<float>{16224.25f}));
}

TEST(FormatEmulation, AttentionReadsItsInt4KvCacheWithOneScalePerToken) {
  // One head, one query, two keys, d = 2. q = 0: both scores 0, softmax 1/2 each, so the
  // result is the mean of V's stored rows: token 0 {1, 0.5} with scale fp16(1/7) = s gives
  // {7s, 4s}, token 1 {-14, 6} with scale 2 stays. Mean: {(7s - 14) / 2, (4s + 6) / 2}.
  ir::Graph graph("attention");
  const ir::NodeId q =
      graph.add_tensor(float_tensor("a", {1, 1, 1, 2}, ir::TensorRole::kActivation));
  const ir::NodeId k = graph.add_tensor(weight("k", {1, 1, 2, 2}, {1, 0, 0, 1}));
  const ir::NodeId v = graph.add_tensor(weight("v", {1, 1, 2, 2}, {1, 0.5, -14, 6}));
  ir::Op op;
  op.name = "attention";
  ir::AttentionAttrs attrs{1, 1, 1, 1, 2, 2};
  attrs.kv_dtype = ir::DType::kInt4;
  op.attrs = attrs;
  op.dtype = ir::DType::kFp32;
  const ir::NodeId node = graph.add_op(op);
  const ir::NodeId y = graph.add_tensor(float_tensor("y", {1, 1, 1, 2}, ir::TensorRole::kOutput));
  for (ir::NodeId operand : {q, k, v}) graph.connect(operand, node);
  graph.connect(node, y);
  const float s = 0.142822265625f;
  EXPECT_EQ(run(graph, {0, 0}, {1, 1, 1, 2}),
            (std::vector<float>{(7 * s - 14) / 2, (4 * s + 6) / 2}));
  EXPECT_EQ(run(graph, {0, 0}, {1, 1, 1, 2}, Numerics::kFp32), (std::vector<float>{-6.5f, 3.25f}));
}

TEST(FormatEmulation, AQdqModelsInt8OpsComputeWhatItsQuantizersSay) {
  // The QDQ model's int8 convolutions read DequantizeLinear's values: emulating formats changes
  // nothing there (and its other ops keep fp32).
  for (const testing::ReferenceModel& model : testing::reference_models()) {
    if (model.model != "tiny_cnn_int8_qdq") continue;
    ir::Graph graph = testing::imported(model);
    lower::standard_pipeline().run(graph);
    int64_t int8_ops = 0;
    for (ir::NodeId id : graph.topological_ops()) {
      if (graph.op(id).dtype == ir::DType::kInt8) ++int8_ops;
    }
    ASSERT_GT(int8_ops, 0);
    const std::vector<NamedTensor> inputs = testing::reference_inputs(graph, model);
    EXPECT_EQ(run_graph(graph, inputs, nullptr, Numerics::kOpFormats).at(0).tensor.values,
              run_graph(graph, inputs).at(0).tensor.values);
  }
}

TEST(FormatEmulation, TypesWithoutAnEmulationAreRefusedNamingTheKind) {
  auto refusal = [](const std::string& text) {
    try {
      check_emulated_policy(passes::parse_precision_policy(text), text);
    } catch (const Error& error) {
      return std::string(error.message());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal("fp16,softmax=fp8").find("softmax in fp8_e4m3"), std::string::npos);
  EXPECT_NE(refusal("int16").find("gemm in int16"), std::string::npos);
  EXPECT_EQ(refusal("w4a16"), "accepted");
  EXPECT_EQ(refusal("fp8,kv_cache=int4"), "accepted");
  EXPECT_EQ(refusal("w8a8"), "accepted");
}

}  // namespace
}  // namespace polyarch::interp
