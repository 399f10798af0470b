#pragma once
// What every model builder writes with: a graph whose ops are connected by named tensors, as an
// imported and lowered model's are. Graph inputs (images, token ids, KV caches) and weights are
// tensors no op produces; each op writes one result, <op>.out. Weights carry shapes but no
// contents, so a built model can be timed but not computed (functional mode says so).
#include <optional>
#include <string>
#include <vector>

#include "compiler/frontend/model_builder/model_config.h"
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

using Shape = std::vector<int64_t>;

class ModelGraph {
 public:
  // Named after the model; every op gets its dtype and points at its `model:` map in errors.
  explicit ModelGraph(const ModelConfig& model);

  // A tensor no op produces: of the model's element type unless `element_type` says otherwise
  // (token ids are int64).
  ir::NodeId input(const std::string& name, Shape shape,
                   std::optional<ir::DType> element_type = std::nullopt);
  ir::NodeId weight(const std::string& name, Shape shape);
  // Adds op `name` reading `operands` in order and writing one result <name>.out of `shape`.
  ir::NodeId add(const std::string& name, ir::OpAttrs attrs,
                 const std::vector<ir::NodeId>& operands, Shape result_shape);

  // A copy: adding nodes may move the graph's storage.
  Shape shape(ir::NodeId tensor) const { return graph_.tensor(tensor).shape; }
  // Bytes of one element of the model's tensors.
  int64_t element_bytes() const { return ir::dtype_bytes(tensor_dtype()); }

  // Marks `output` as the model's result, checks every op and its operand shapes
  // (ir::infer_shapes) and hands the graph over.
  ir::Graph finish(ir::NodeId output) &&;

 private:
  // Tensors need some element type: the model's when given, else int8 as a placeholder until a
  // unit is chosen (the ops' nullopt dtype is what mappers look at), as layer lists do.
  ir::DType tensor_dtype() const { return dtype_.value_or(ir::DType::kInt8); }

  ir::Graph graph_;
  std::optional<ir::DType> dtype_;
  SourceLocation where_;
};

// Layers shared by the families. Each takes its operands' sizes from their tensors' shapes.

// x [..., k] times a [k, n] weight (plus a bias row): one GEMM with m = the leading axes of x
// folded together, as lowering does for ONNX MatMul and Gemm. Result [1, m, n].
ir::NodeId linear(ModelGraph& graph, const std::string& name, ir::NodeId input,
                  int64_t out_features, bool bias);

// `fn` over every element of inputs[0]; the other inputs have its shape.
ir::NodeId elementwise(ModelGraph& graph, const std::string& name, const std::string& fn,
                       const std::vector<ir::NodeId>& inputs);

// Normalises each row of x's last axis; LayerNorm has a scale and a shift, RMSNorm a scale.
ir::NodeId norm(ModelGraph& graph, const std::string& name, ir::NormKind kind, ir::NodeId input);

// A view of x [n, ...] as [n, rest] (Flatten before a classifier): moves nothing.
ir::NodeId flatten(ModelGraph& graph, const std::string& name, ir::NodeId input);

}  // namespace polyarch::frontend
