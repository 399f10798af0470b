#include "compiler/interp/execute_frontend.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

#include "compiler/interp/execute_op.h"
#include "compiler/lower/lower_context.h"
#include "compiler/passes/constant_eval.h"
#include "compiler/passes/onnx_shape_rules.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::interp {

namespace {

// Shape rules read small integer operands' contents (Reshape targets, axes, Slice bounds);
// larger integer tensors (token ids) are never shape operands.
constexpr int64_t kMaxShapeOperandElements = 1024;

passes::Values to_values(const DenseTensor& tensor) {
  passes::Values values = passes::empty_values(tensor.dtype, tensor.shape);
  for (float value : tensor.values) {
    if (values.is_float()) {
      values.reals.push_back(value);
    } else {
      // Exact for the integers the interpreter carries (|x| < 2^24); clamped so that a
      // float-rounded INT64_MAX stays in range.
      const double clamped = std::clamp(double{value}, -9.2e18, 9.2e18);
      values.ints.push_back(static_cast<int64_t>(clamped));
    }
  }
  return values;
}

DenseTensor from_values(const passes::Values& values) {
  DenseTensor tensor;
  tensor.shape = values.shape;
  tensor.dtype = values.dtype;
  for (std::size_t i = 0; i < static_cast<std::size_t>(values.size()); ++i) {
    tensor.values.push_back(static_cast<float>(values.real(i)));
  }
  return tensor;
}

// A stand-in for an operand tensor with the value's actual shape and type, and the contents
// of small integer values (constants keep their exact contents).
ir::Tensor stand_in(const ir::Tensor& declared, const DenseTensor& value) {
  ir::Tensor tensor;
  tensor.name = declared.name;
  tensor.role = declared.role;
  tensor.shape = value.shape;
  tensor.scalar = value.shape.empty();
  tensor.dtype = value.dtype;
  if (declared.has_data() && !passes::is_float_dtype(declared.dtype)) {
    tensor.data = declared.data;
  } else if (!passes::is_float_dtype(value.dtype) && value.size() <= kMaxShapeOperandElements) {
    passes::store_values(to_values(value), tensor);
  }
  return tensor;
}

ir::Tensor result_tensor(const ir::Tensor& declared, const passes::TypedShape& type) {
  ir::Tensor tensor;
  tensor.name = declared.name;
  tensor.role = declared.role;
  tensor.shape = type.shape;
  tensor.scalar = type.shape.empty();
  tensor.dtype = type.dtype;
  return tensor;
}

// The node as one op of a graph of its own, operands and results the stand-ins: what the
// shape rules and the lowering rule read.
struct SingleNodeGraph {
  ir::Graph graph;
  ir::NodeId op_id = 0;
  std::map<ir::NodeId, const DenseTensor*> operand_values;  // by stand-in id
};

SingleNodeGraph single_node_graph(const ir::Graph& graph, ir::NodeId op_id,
                                  const std::vector<const DenseTensor*>& operands,
                                  const std::vector<ir::Tensor>& results) {
  SingleNodeGraph single;
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
  std::vector<ir::NodeId> ids;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    ids.push_back(single.graph.add_tensor(stand_in(graph.tensor(inputs[i]), *operands[i])));
    single.operand_values[ids.back()] = operands[i];
  }
  single.op_id = single.graph.add_op(graph.op(op_id));
  for (ir::NodeId id : ids) single.graph.connect(id, single.op_id);
  for (const ir::Tensor& result : results) {
    single.graph.connect(single.op_id, single.graph.add_tensor(result));
  }
  return single;
}

std::vector<passes::TypedShape> infer_results(const SingleNodeGraph& single) {
  const ir::Op& op = single.graph.op(single.op_id);
  std::vector<const ir::Tensor*> operands;
  for (const auto& operand : passes::onnx_operands(single.graph, single.op_id)) {
    operands.push_back(operand ? &single.graph.tensor(*operand) : nullptr);
  }
  const passes::ShapeContext context(op, *passes::onnx_node(op), operands,
                                     single.graph.outputs_of(single.op_id).size());
  const passes::InferredResults inferred = passes::infer_onnx_node(context);
  if (!inferred) passes::node_error(op, "its result shapes cannot be inferred from its operands");
  return *inferred;
}

std::optional<std::vector<DenseTensor>> evaluate(const SingleNodeGraph& single,
                                                 const std::vector<passes::TypedShape>& types) {
  const ir::Op& op = single.graph.op(single.op_id);
  const ir::OnnxNodeAttrs& node = *passes::onnx_node(op);
  if (!passes::is_evaluable(node.op_type)) return std::nullopt;
  // Real arithmetic takes the fp32 kernel, as in the lowered graph: the evaluator computes in
  // double, and a rounding difference could flip a later QuantizeLinear by a step.
  const bool arithmetic = node.op_type == "Add" || node.op_type == "Sub" || node.op_type == "Mul" ||
                          node.op_type == "Div";
  if (arithmetic && passes::is_float_dtype(types.at(0).dtype)) return std::nullopt;
  std::vector<const ir::Tensor*> operand_tensors;
  std::vector<std::optional<passes::Values>> operand_values;
  for (const auto& operand : passes::onnx_operands(single.graph, single.op_id)) {
    operand_tensors.push_back(operand ? &single.graph.tensor(*operand) : nullptr);
    if (!operand) {
      operand_values.emplace_back();
      continue;
    }
    const ir::Tensor& tensor = single.graph.tensor(*operand);
    std::optional<passes::Values> exact = passes::read_values(tensor);
    operand_values.push_back(exact ? std::move(exact)
                                   : to_values(*single.operand_values.at(*operand)));
  }
  const passes::ShapeContext context(op, node, operand_tensors, types.size());
  const std::optional<std::vector<passes::Values>> values =
      passes::evaluate_onnx_node(context, operand_values, types);
  if (!values) return std::nullopt;
  std::vector<DenseTensor> results;
  for (const passes::Values& value : *values) results.push_back(from_values(value));
  return results;
}

// Lowers the node on its own and runs the canonical op's kernel.
std::vector<DenseTensor> run_lowered(const SingleNodeGraph& single) {
  const lower::LowerContext context(single.graph, single.op_id);
  lower::Lowered lowered = lower::lower_onnx_node(context);
  std::vector<const ir::Tensor*> results;
  for (ir::NodeId result : single.graph.outputs_of(single.op_id)) {
    results.push_back(&single.graph.tensor(result));
  }
  if (!lowered.attrs) {  // a Constant: its value is its result's contents
    std::vector<DenseTensor> constants;
    for (const ir::Tensor* result : results) {
      const std::optional<passes::Values> values = passes::read_values(*result);
      if (!values) passes::node_error(context.op(), "has no value the interpreter can read");
      constants.push_back(from_values(*values));
    }
    return constants;
  }
  ir::Op canonical;
  canonical.name = context.op().name;
  canonical.where = context.op().where;
  canonical.attrs = std::move(*lowered.attrs);
  canonical.lowered_from = lower::lowered_from(context);
  std::vector<const DenseTensor*> operands;
  for (ir::NodeId input : lowered.inputs) operands.push_back(single.operand_values.at(input));
  return execute_op(canonical, operands, results);
}

}  // namespace

std::vector<DenseTensor> execute_frontend_op(const ir::Graph& graph, ir::NodeId op_id,
                                             const std::vector<const DenseTensor*>& operands) {
  std::vector<ir::Tensor> declared;
  for (ir::NodeId id : graph.outputs_of(op_id)) declared.push_back(graph.tensor(id));
  SingleNodeGraph single = single_node_graph(graph, op_id, operands, declared);
  const std::vector<ir::NodeId> results = single.graph.outputs_of(single.op_id);
  // A Constant's results hold its value already; every other node's are inferred afresh.
  if (passes::onnx_node(graph.op(op_id))->op_type != "Constant") {
    const std::vector<passes::TypedShape> inferred = infer_results(single);
    for (std::size_t i = 0; i < results.size() && i < inferred.size(); ++i) {
      single.graph.tensor(results[i]) = result_tensor(declared[i], inferred[i]);
    }
  }
  std::vector<passes::TypedShape> types;
  for (ir::NodeId result : results) {
    types.push_back({single.graph.tensor(result).shape, single.graph.tensor(result).dtype});
  }
  std::optional<std::vector<DenseTensor>> values = evaluate(single, types);
  if (!values) values = run_lowered(single);
  for (std::size_t i = 0; i < values->size() && i < types.size(); ++i) {
    (*values)[i].shape = types[i].shape;
    (*values)[i].dtype = types[i].dtype;
  }
  return std::move(*values);
}

}  // namespace polyarch::interp
