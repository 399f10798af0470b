#include "compiler/passes/cse.h"

#include <cstring>
#include <functional>
#include <map>
#include <string_view>

#include "compiler/ir/attribute_text.h"
#include "compiler/ir/graph_edit.h"
#include "compiler/ir/op_text.h"
#include "compiler/ir/shape_text.h"

namespace polyarch::passes {

namespace {

// A value constant folding computed (its node gone): scalars, and shape, index and mask data
// (int64, int32, bool). Initializers are the model's parameters and stay apart (see cse.h).
bool mergeable_constant(const ir::Graph& graph, ir::NodeId id) {
  const ir::Tensor& tensor = graph.tensor(id);
  if (!tensor.has_data() || tensor.role != ir::TensorRole::kActivation) return false;
  if (ir::producer_of(graph, id)) return false;
  return ir::element_count(tensor.shape) <= 1 || tensor.dtype == ir::DType::kInt64 ||
         tensor.dtype == ir::DType::kInt32 || tensor.dtype == ir::DType::kBool;
}

// Type, shape and contents; equal keys are equal constants.
std::string constant_key(const ir::Tensor& tensor) {
  std::string key = std::string(ir::dtype_name(tensor.dtype)) + ir::shape_text(tensor.shape) +
                    (tensor.scalar ? "s" : "") + ":";
  key.append(reinterpret_cast<const char*>(tensor.data->data()), tensor.data->size());
  return key;
}

std::string node_text(const ir::OnnxNodeAttrs& node) {
  return node.domain + "." + node.op_type + "@" + std::to_string(node.opset) + " " +
         ir::onnx_attributes_text(node) + " omitted" + ir::shape_text(node.omitted_inputs) +
         ir::shape_text(node.omitted_outputs);
}

bool has_tensor_attribute(const ir::OnnxNodeAttrs& node) {
  for (const auto& [name, value] : node.attributes) {
    if (std::holds_alternative<ir::Tensor>(value)) return true;
  }
  return false;
}

bool random(const ir::OnnxNodeAttrs& node) {
  return node.op_type.starts_with("Random") || node.op_type == "Multinomial" ||
         node.op_type == "Bernoulli";
}

// Everything that decides what the op computes except its operands; nullopt for an op that
// must not be merged.
std::optional<std::string> op_key(const ir::Op& op) {
  const ir::OnnxNodeAttrs* node = std::get_if<ir::OnnxNodeAttrs>(&op.attrs);
  if (node == nullptr) node = op.lowered_from.get();  // a canonical op's full semantics
  if (node != nullptr && (has_tensor_attribute(*node) || random(*node))) return std::nullopt;
  std::string key = ir::op_type_name(op) + " " + ir::op_attributes_text(op.attrs) + " | " +
                    (node != nullptr ? node_text(*node) : "") + " | " +
                    (op.dtype ? std::string(ir::dtype_name(*op.dtype)) : "native");
  if (op.weight_sparsity) {
    key += " sparsity " + std::to_string(op.weight_sparsity->density) + " " +
           std::to_string(op.weight_sparsity->n) + ":" + std::to_string(op.weight_sparsity->m);
  }
  if (op.layout) key += " layout " + std::string(ir::layout_name(*op.layout));
  if (op.weight_format) {
    key += " weights " + std::string(ir::dtype_name(op.weight_format->dtype)) + " " +
           std::to_string(op.weight_format->group);
  }
  return key;
}

bool writes_graph_output(const ir::Graph& graph, ir::NodeId op_id) {
  for (ir::NodeId result : graph.outputs_of(op_id)) {
    if (graph.tensor(result).role == ir::TensorRole::kOutput) return true;
  }
  return false;
}

}  // namespace

PassStatistics CommonSubexpressionPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("ops merged", 0);
  statistics.add("constants merged", 0);
  ir::GraphEdit edit(graph);
  // Each tensor's replacement: itself, or the equal tensor that stays.
  std::vector<ir::NodeId> replacement(graph.node_count());
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) replacement[id] = id;

  std::map<std::string, ir::NodeId> constants;
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) || !mergeable_constant(graph, id)) continue;
    const auto [kept, inserted] = constants.emplace(constant_key(graph.tensor(id)), id);
    if (inserted) continue;
    replacement[id] = kept->second;
    edit.erase_tensor(id);
    statistics.add("constants merged");
  }

  std::map<std::string, ir::NodeId> ops;
  for (ir::NodeId op_id : graph.topological_ops()) {
    std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
    bool rewired = false;
    std::string operands;
    for (ir::NodeId& input : inputs) {
      rewired = rewired || replacement[input] != input;
      input = replacement[input];
      operands += " %" + std::to_string(input);
    }
    const std::optional<std::string> key = op_key(graph.op(op_id));
    if (key && !writes_graph_output(graph, op_id)) {
      const std::string results_text = " -> " + std::to_string(graph.outputs_of(op_id).size());
      const auto [kept, inserted] = ops.emplace(*key + " (" + operands + ")" + results_text, op_id);
      if (!inserted) {
        const std::vector<ir::NodeId> results = graph.outputs_of(op_id);
        const std::vector<ir::NodeId> kept_results = graph.outputs_of(kept->second);
        for (std::size_t i = 0; i < results.size(); ++i) {
          replacement[results[i]] = kept_results[i];
          edit.erase_tensor(results[i]);
        }
        edit.erase_op(op_id);
        statistics.add("ops merged");
        continue;
      }
    }
    if (rewired) edit.set_inputs(op_id, std::move(inputs));
  }
  if (statistics.get("ops merged") + statistics.get("constants merged") > 0) {
    graph = edit.apply().graph;
  }
  return statistics;
}

}  // namespace polyarch::passes
