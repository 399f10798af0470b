#pragma once
// What the fusion passes' tests share: float constants and weights with contents for the ONNX
// graph builder, lowering a built graph to canonical ops (fusion's input), and running the
// interpreter on seeded random inputs to hold a pass's result to the graph before it.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "base/random_draw.h"
#include "compiler/interp/interpreter.h"
#include "compiler/lower/lower_onnx.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/shape_inference.h"
#include "compiler/passes/tensor_values.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::testing {

// An fp32 initializer with contents: `values`, or seeded random values in [-1, 1).
inline void floats(OnnxGraphBuilder& builder, const std::string& name, std::vector<int64_t> shape,
                   std::vector<double> values = {}, unsigned seed = 7) {
  builder.input(name, shape);
  ir::Tensor& tensor = builder.tensor(name);
  tensor.role = ir::TensorRole::kWeight;
  passes::Values contents = passes::empty_values(ir::DType::kFp32, shape);
  if (values.empty()) {
    std::mt19937 generator(seed);
    auto uniform = [&](auto& engine) { return polyarch::random_real(engine, -1.0, 1.0); };
    for (int64_t i = 0; i < ir::element_count(shape); ++i) values.push_back(uniform(generator));
  }
  contents.reals = std::move(values);
  passes::store_values(contents, tensor);
}

// A scalar fp32 constant.
inline void scalar(OnnxGraphBuilder& builder, const std::string& name, double value) {
  floats(builder, name, {}, {value});
}

// The built graph through the standard passes up to lowering: canonical ops.
inline ir::Graph lowered(ir::Graph graph) {
  passes::ConstantFoldingPass().run(graph);
  passes::ShapeInferencePass().run(graph);
  passes::DeadCodeEliminationPass().run(graph);
  lower::LoweringPass().run(graph);
  return graph;
}

// Op type names in topological order ("gemm", "elementwise:gelu", ...).
inline std::vector<std::string> op_kinds(const ir::Graph& graph) {
  std::vector<std::string> kinds;
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::Op& op = graph.op(id);
    const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&op.attrs);
    kinds.push_back(ir::op_type_name(op) + (elementwise ? ":" + elementwise->fn : ""));
  }
  return kinds;
}

// Seeded random values for every graph input.
inline std::vector<interp::NamedTensor> random_inputs(const ir::Graph& graph, unsigned seed = 11) {
  std::mt19937 generator(seed);
  auto uniform = [&](auto& engine) {
    return static_cast<float>(polyarch::random_real(engine, -2.0f, 2.0f));
  };
  std::vector<interp::NamedTensor> inputs;
  for (ir::NodeId id : interp::graph_inputs(graph)) {
    interp::NamedTensor input{graph.tensor(id).name, interp::filled_tensor(graph.tensor(id).shape)};
    for (float& value : input.tensor.values) value = uniform(generator);
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// Largest |a - b| over every graph output, relative to the largest |b|.
inline double output_difference(const ir::Graph& after, const ir::Graph& before,
                                const std::vector<interp::NamedTensor>& inputs) {
  const std::vector<interp::NamedTensor> a = interp::run_graph(after, inputs);
  const std::vector<interp::NamedTensor> b = interp::run_graph(before, inputs);
  double error = 0.0, scale = 0.0;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    EXPECT_EQ(a[i].tensor.shape, b[i].tensor.shape) << a[i].name;
    for (std::size_t j = 0; j < b[i].tensor.values.size(); ++j) {
      error = std::max(error, double{std::fabs(a[i].tensor.values[j] - b[i].tensor.values[j])});
      scale = std::max(scale, double{std::fabs(b[i].tensor.values[j])});
    }
  }
  return scale == 0.0 ? error : error / scale;
}

}  // namespace polyarch::testing
