// The MVM hook: static-weight ops routed through an engine compute what the reference kernels
// compute when the engine's product is exact, and the interpreter hands the engine only the
// products whose weights are graph constants.
#include "compiler/interp/mvm_engine.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "base/random_draw.h"
#include "compiler/interp/functional_accuracy.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/interp/reference_models.h"

namespace polyarch::interp {
namespace {

// The exact product, recording what it was asked.
class ExactEngine : public MvmEngine {
 public:
  bool accepts(const ir::Op& op) const override { return op.name != refused; }
  std::vector<float> multiply(const MvmCall& call) override {
    calls.push_back({call.op.name, call.weight_set, call.m, call.k, call.n});
    std::vector<float> result(static_cast<std::size_t>(call.m * call.n), 0.0f);
    for (int64_t row = 0; row < call.m; ++row) {
      for (int64_t inner = 0; inner < call.k; ++inner) {
        for (int64_t col = 0; col < call.n; ++col) {
          result[row * call.n + col] +=
              call.activations[row * call.k + inner] * call.weights[inner * call.n + col];
        }
      }
    }
    return result;
  }
  nlohmann::ordered_json describe() const override { return {{"name", "exact"}}; }
  nlohmann::ordered_json op_stats(const std::string& op_name) const override {
    for (const Call& call : calls) {
      if (call.op == op_name) return {{"calls", 1}};
    }
    return nullptr;
  }

  struct Call {
    std::string op;
    int64_t weight_set, m, k, n;
  };
  std::vector<Call> calls;
  std::string refused;
};

DenseTensor random_tensor(Shape shape, uint64_t seed) {
  DenseTensor tensor = filled_tensor(std::move(shape));
  std::mt19937_64 generator(seed);
  auto value = [&](auto& engine) {
    return static_cast<float>(polyarch::random_real(engine, -1.0f, 1.0f));
  };
  for (float& v : tensor.values) v = value(generator);
  return tensor;
}

void expect_close(const DenseTensor& actual, const DenseTensor& expected) {
  ASSERT_EQ(actual.shape, expected.shape);
  for (std::size_t i = 0; i < expected.values.size(); ++i) {
    EXPECT_NEAR(actual.values[i], expected.values[i], 1e-5) << i;
  }
}

ir::Op named(const std::string& name) {
  ir::Op op;
  op.name = name;
  return op;
}

TEST(MvmEngine, GemmThroughAnExactEngineMatchesTheKernelWithTransposesAlphaBetaAndBias) {
  ExactEngine engine;
  const DenseTensor a = random_tensor({6, 4}, 1);  // transposed: m = 4, k = 6
  const DenseTensor b = random_tensor({5, 6}, 2);  // transposed: n = 5
  const DenseTensor c = random_tensor({5}, 3);
  const GemmOptions options{true, true, 0.5f, 2.0f};
  expect_close(gemm_through(engine, named("fc"), a, b, &c, options), gemm(a, b, &c, options));
  ASSERT_EQ(engine.calls.size(), 1u);
  EXPECT_EQ(engine.calls[0].m, 4);
  EXPECT_EQ(engine.calls[0].k, 6);
  EXPECT_EQ(engine.calls[0].n, 5);
}

TEST(MvmEngine, MatmulThroughFoldsLeadingAxesIntoInputVectors) {
  ExactEngine engine;
  const DenseTensor a = random_tensor({2, 3, 8}, 4);
  const DenseTensor b = random_tensor({8, 7}, 5);
  expect_close(matmul_through(engine, named("proj"), a, b), matmul(a, b));
  EXPECT_EQ(engine.calls.at(0).m, 6);
}

TEST(MvmEngine, ConvThroughIsOneIm2colProductPerGroup) {
  ExactEngine engine;
  ir::Conv2dAttrs attrs{.n = 2,
                        .c = 4,
                        .h = 7,
                        .w = 6,
                        .k = 6,
                        .r = 3,
                        .s = 2,
                        .stride_h = 2,
                        .stride_w = 1,
                        .pad_h = 1,
                        .pad_w = 1,
                        .groups = 2,
                        .bias = true};
  const DenseTensor input = random_tensor({2, 4, 7, 6}, 6);
  const DenseTensor weight = random_tensor({6, 2, 3, 2}, 7);
  const DenseTensor bias = random_tensor({6}, 8);
  expect_close(conv2d_through(engine, named("conv"), input, weight, &bias, attrs),
               conv2d(input, weight, &bias, attrs));
  ASSERT_EQ(engine.calls.size(), 2u);
  EXPECT_EQ(engine.calls[1].weight_set, 1);
  EXPECT_EQ(engine.calls[1].m, 2 * attrs.out_h() * attrs.out_w());
  EXPECT_EQ(engine.calls[1].k, 2 * 3 * 2);
  EXPECT_EQ(engine.calls[1].n, 3);
}

TEST(MvmEngine, TheInterpreterRoutesOnlyAcceptedStaticWeightProducts) {
  const testing::ReferenceModel model = testing::reference_models().front();  // tiny_cnn
  ir::Graph graph = testing::imported(model);
  lower::standard_pipeline().run(graph);
  const std::vector<NamedTensor> inputs = testing::reference_inputs(graph, model);
  const std::vector<LayerTensor> layers = layer_tensors(graph);
  ASSERT_GE(layers.size(), 3u);
  ExactEngine engine;
  engine.refused = layers[1].op_name;
  const std::vector<NamedTensor> routed = run_graph(graph, inputs, &engine);
  const std::vector<NamedTensor> reference = run_graph(graph, inputs);
  EXPECT_LT(testing::relative_error(routed.at(0).tensor, reference.at(0).tensor), 1e-5);
  std::set<std::string> ops;
  for (const ExactEngine::Call& call : engine.calls) ops.insert(call.op);
  EXPECT_EQ(ops.size(), layers.size() - 1);
  EXPECT_EQ(ops.count(layers[1].op_name), 0u);
}

TEST(FunctionalAccuracy, TopOneAgreementCountsRowsWithTheSameArgMax) {
  DenseTensor ideal = filled_tensor({3, 4});
  DenseTensor actual = filled_tensor({3, 4});
  ideal.values = {0, 1, 0, 0, /**/ 5, 0, 0, 0, /**/ 0, 0, 0, 2};
  actual.values = {0, 2, 1, 0, /**/ 0, 6, 0, 0, /**/ 0, 0, 0, 1};
  EXPECT_DOUBLE_EQ(top1_agreement(actual, ideal), 2.0 / 3.0);
  EXPECT_LT(top1_agreement(filled_tensor({1, 2, 3}), filled_tensor({1, 2, 3})), 0.0);
  const TensorError error = tensor_error(actual, ideal);
  EXPECT_DOUBLE_EQ(error.max_abs_error, 6.0);
  EXPECT_DOUBLE_EQ(error.max_rel_error, 6.0 / 5.0);
}

}  // namespace
}  // namespace polyarch::interp
