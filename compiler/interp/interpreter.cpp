#include "compiler/interp/interpreter.h"

#include <optional>

#include "base/error.h"
#include "compiler/interp/execute_frontend.h"
#include "compiler/interp/execute_op.h"
#include "compiler/interp/format_emulation.h"
#include "compiler/interp/narrow_constants.h"
#include "compiler/passes/onnx_shape_context.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::interp {

namespace {

bool is_fed(const ir::Graph& graph, ir::NodeId id) {
  if (graph.is_op(id) || boost::in_degree(id, graph.storage()) > 0) return false;
  const ir::Tensor& tensor = graph.tensor(id);
  return tensor.role != ir::TensorRole::kWeight && !tensor.has_data();
}

DenseTensor constant_value(const ir::Tensor& tensor) {
  if (std::optional<DenseTensor> narrow = narrow_constant_value(tensor)) return std::move(*narrow);
  const std::optional<passes::Values> values = passes::read_values(tensor);
  if (!values) {
    throw_bad_input({}, "constant '" + tensor.name + "' has no contents the interpreter can read");
  }
  DenseTensor dense;
  dense.shape = tensor.shape;
  dense.dtype = tensor.dtype;
  for (int64_t i = 0; i < values->size(); ++i) {
    dense.values.push_back(static_cast<float>(values->real(static_cast<std::size_t>(i))));
  }
  return dense;
}

// The engine for a Gemm's or Conv2d's product when its weights (operand 1) are static.
MvmEngine* engine_for(const ir::Graph& graph, ir::NodeId op_id, MvmEngine* mvm) {
  const ir::Op& op = graph.op(op_id);
  if (mvm == nullptr || (op.kind() != ir::OpKind::kGemm && op.kind() != ir::OpKind::kConv2d)) {
    return nullptr;
  }
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
  if (inputs.size() < 2) return nullptr;
  const ir::Tensor& weights = graph.tensor(inputs[1]);
  const bool is_static = weights.role == ir::TensorRole::kWeight || weights.has_data();
  return is_static && mvm->accepts(op) ? mvm : nullptr;
}

// One op of either kind. Kernels report problems without knowing the op; the op's name and
// type (or its workload location) are added here.
std::vector<DenseTensor> execute_any_op(const ir::Graph& graph, ir::NodeId op_id,
                                        const std::vector<const DenseTensor*>& operands,
                                        MvmEngine* mvm, Numerics numerics) {
  const ir::Op& op = graph.op(op_id);
  try {
    if (op.kind() == ir::OpKind::kFrontend) return execute_frontend_op(graph, op_id, operands);
    std::vector<const ir::Tensor*> results;
    for (ir::NodeId result : graph.outputs_of(op_id)) results.push_back(&graph.tensor(result));
    const bool in_formats = numerics == Numerics::kOpFormats;
    const std::optional<std::vector<DenseTensor>> converted =
        in_formats ? operands_in_formats(graph, op_id, operands) : std::nullopt;
    std::vector<const DenseTensor*> read = operands;
    if (converted) {
      for (std::size_t i = 0; i < read.size(); ++i) read[i] = &(*converted)[i];
    }
    std::vector<DenseTensor> computed =
        in_formats && is_fp8_product(graph, op_id)
            ? execute_fp8_product(op, operands, results)
            : execute_op(op, read, results, engine_for(graph, op_id, mvm));
    for (std::size_t i = 0; i < computed.size() && i < results.size(); ++i) {
      computed[i].dtype = results[i]->dtype;
    }
    if (in_formats) round_results(op, computed);
    return computed;
  } catch (const Error& error) {
    if (!error.where().to_string().empty()) throw;
    SourceLocation where = op.where;
    if (where.to_string().empty()) {
      where.key_path = "'" + op.name + "' (" + ir::op_type_name(op) + ")";
    }
    throw Error(error.kind(), where, error.message());
  }
}

}  // namespace

std::vector<ir::NodeId> graph_inputs(const ir::Graph& graph) {
  std::vector<ir::NodeId> inputs;
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (is_fed(graph, id)) inputs.push_back(id);
  }
  return inputs;
}

std::vector<ir::NodeId> graph_outputs(const ir::Graph& graph) {
  std::vector<ir::NodeId> outputs;
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (!graph.is_op(id) && graph.tensor(id).role == ir::TensorRole::kOutput) {
      outputs.push_back(id);
    }
  }
  return outputs;
}

namespace {

// Every tensor's value after running the graph; tensors nothing needed stay empty.
std::vector<std::optional<DenseTensor>> execute_graph(const ir::Graph& graph,
                                                      const std::vector<NamedTensor>& inputs,
                                                      MvmEngine* mvm, Numerics numerics) {
  if (!graph.functional_available()) {
    throw_bad_input({}, "functional mode is unavailable for graph '" + graph.name() +
                            "': " + graph.functional_unavailable_reason());
  }
  std::vector<std::optional<DenseTensor>> values(graph.node_count());
  for (ir::NodeId id : graph_inputs(graph)) {
    const ir::Tensor& tensor = graph.tensor(id);
    const NamedTensor* fed = nullptr;
    for (const NamedTensor& input : inputs) {
      if (input.name == tensor.name) fed = &input;
    }
    if (fed == nullptr) throw_bad_input({}, "graph input '" + tensor.name + "' was not given");
    if (tensor.shape_known() && fed->tensor.shape != tensor.shape) {
      throw_bad_input({}, "graph input '" + tensor.name + "' has shape " +
                              passes::shape_string(tensor.shape) + "; the value given is " +
                              passes::shape_string(fed->tensor.shape));
    }
    values[id] = fed->tensor;
    values[id]->dtype = tensor.dtype;
  }
  for (ir::NodeId op_id : graph.topological_ops()) {
    std::vector<const DenseTensor*> operands;
    for (ir::NodeId input : graph.inputs_of(op_id)) {
      if (!values[input]) values[input] = constant_value(graph.tensor(input));
      operands.push_back(&*values[input]);
    }
    const std::vector<ir::NodeId> result_ids = graph.outputs_of(op_id);
    std::vector<DenseTensor> computed = execute_any_op(graph, op_id, operands, mvm, numerics);
    for (std::size_t i = 0; i < result_ids.size() && i < computed.size(); ++i) {
      values[result_ids[i]] = std::move(computed[i]);
    }
  }
  return values;
}

}  // namespace

std::vector<NamedTensor> evaluate_tensors(const ir::Graph& graph,
                                          const std::vector<NamedTensor>& inputs,
                                          const std::vector<std::string>& names, MvmEngine* mvm,
                                          Numerics numerics) {
  std::vector<ir::NodeId> wanted;
  for (const std::string& name : names) {
    std::optional<ir::NodeId> found;
    for (ir::NodeId id = 0; id < graph.node_count() && !found; ++id) {
      if (!graph.is_op(id) && graph.tensor(id).name == name) found = id;
    }
    if (!found) {
      throw_bad_input({}, "the compiled graph has no tensor '" + name +
                              "' (passes may have folded or removed it; `polyarch compile "
                              "--dump-ir all` lists the tensors)");
    }
    wanted.push_back(*found);
  }
  std::vector<std::optional<DenseTensor>> values = execute_graph(graph, inputs, mvm, numerics);
  std::vector<NamedTensor> named;
  for (ir::NodeId id : wanted) {
    const ir::Tensor& tensor = graph.tensor(id);
    if (!values[id]) values[id] = constant_value(tensor);
    named.push_back({tensor.name, *values[id]});
  }
  return named;
}

std::vector<NamedTensor> run_graph(const ir::Graph& graph, const std::vector<NamedTensor>& inputs,
                                   MvmEngine* mvm, Numerics numerics) {
  std::vector<std::string> names;
  for (ir::NodeId id : graph_outputs(graph)) names.push_back(graph.tensor(id).name);
  return evaluate_tensors(graph, inputs, names, mvm, numerics);
}

}  // namespace polyarch::interp
