#include "compiler/frontend/model_builder/model_graph.h"

#include "base/checked_math.h"

namespace polyarch::frontend {

ModelGraph::ModelGraph(const ModelConfig& model)
    : graph_(model.name), dtype_(model.dtype), where_(model.where) {
  graph_.mark_functional_unavailable("model '" + model.name +
                                     "' comes from a model builder: its weights are shapes "
                                     "only, with no values to compute with");
}

ir::NodeId ModelGraph::input(const std::string& name, Shape shape,
                             std::optional<ir::DType> element_type) {
  return graph_.add_tensor(
      {name, std::move(shape), element_type.value_or(tensor_dtype()), ir::TensorRole::kActivation});
}

ir::NodeId ModelGraph::weight(const std::string& name, Shape shape) {
  return graph_.add_tensor({name, std::move(shape), tensor_dtype(), ir::TensorRole::kWeight});
}

ir::NodeId ModelGraph::add(const std::string& name, ir::OpAttrs attrs,
                           const std::vector<ir::NodeId>& operands, Shape result_shape) {
  ir::Op op;
  op.name = name;
  op.attrs = std::move(attrs);
  op.dtype = dtype_;
  op.where = where_;
  const ir::NodeId op_id = graph_.add_op(std::move(op));
  for (ir::NodeId operand : operands) graph_.connect(operand, op_id);
  const ir::NodeId result = graph_.add_tensor(
      {name + ".out", std::move(result_shape), tensor_dtype(), ir::TensorRole::kActivation});
  graph_.connect(op_id, result);
  return result;
}

ir::Graph ModelGraph::finish(ir::NodeId output) && {
  graph_.tensor(output).role = ir::TensorRole::kOutput;
  ir::infer_shapes(graph_);
  return std::move(graph_);
}

ir::NodeId linear(ModelGraph& graph, const std::string& name, ir::NodeId input,
                  int64_t out_features, bool bias) {
  const Shape shape = graph.shape(input);
  ir::GemmAttrs gemm;
  gemm.k = shape.back();
  gemm.m = ir::element_count(shape) / gemm.k;
  gemm.n = out_features;
  gemm.bias = bias;
  std::vector<ir::NodeId> operands = {input, graph.weight(name + ".w", {gemm.k, gemm.n})};
  if (bias) operands.push_back(graph.weight(name + ".b", {gemm.n}));
  return graph.add(name, gemm, operands, {1, gemm.m, gemm.n});
}

ir::NodeId elementwise(ModelGraph& graph, const std::string& name, const std::string& fn,
                       const std::vector<ir::NodeId>& inputs) {
  const Shape shape = graph.shape(inputs.front());
  ir::ElementwiseAttrs attrs;
  attrs.fn = fn;
  attrs.elements = ir::element_count(shape);
  attrs.inputs = static_cast<int64_t>(inputs.size());
  return graph.add(name, attrs, inputs, shape);
}

ir::NodeId norm(ModelGraph& graph, const std::string& name, ir::NormKind kind, ir::NodeId input) {
  const Shape shape = graph.shape(input);
  ir::NormAttrs attrs;
  attrs.kind = kind;
  attrs.cols = shape.back();
  attrs.rows = ir::element_count(shape) / attrs.cols;
  std::vector<ir::NodeId> operands = {input, graph.weight(name + ".scale", {attrs.cols})};
  if (kind == ir::NormKind::kLayerNorm) {
    operands.push_back(graph.weight(name + ".bias", {attrs.cols}));
  }
  return graph.add(name, attrs, operands, shape);
}

ir::NodeId flatten(ModelGraph& graph, const std::string& name, ir::NodeId input) {
  const Shape shape = graph.shape(input);
  const int64_t elements = ir::element_count(shape);
  ir::CopyAttrs view;
  view.bytes = checked_mul(elements, graph.element_bytes(), "flatten bytes");
  view.is_view = true;
  return graph.add(name, view, {input}, {shape.front(), elements / shape.front()});
}

}  // namespace polyarch::frontend
