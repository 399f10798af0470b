// print_graph: the text IR, which golden tests and `polyarch compile --dump-ir` show and
// parse_ir (ir_parser.h) reads back. The grammar is in docs/ir.md.
#include <algorithm>
#include <map>
#include <variant>

#include "compiler/ir/attribute_text.h"
#include "compiler/ir/graph.h"
#include "compiler/ir/name_text.h"
#include "compiler/ir/op_text.h"
#include "compiler/ir/tensor_text.h"

namespace polyarch::ir {

namespace {

constexpr const char* kElidedValuesReason =
    "the text IR leaves out the values of constants over 64 elements (structure only)";

// Shortest exact text of a double, as attributes print it (density=0.5, density=1.0).
std::string real_text(double value) { return attribute_value_text(AttributeValue(value)); }

// What the layout, sparsity and input-signs passes decided, when they did, and how weights and
// a KV cache are stored: " layout=nhwc sparsity=2:4 density=0.5 input=unsigned weights=int4
// group=128".
std::string placement_text(const Op& op) {
  std::string text;
  if (op.layout) text += " layout=" + std::string(layout_name(*op.layout));
  if (op.weight_sparsity) {
    const WeightSparsity& sparsity = *op.weight_sparsity;
    if (sparsity.structured()) {
      text += " sparsity=" + std::to_string(sparsity.n) + ":" + std::to_string(sparsity.m);
    }
    text += " density=" + real_text(sparsity.density);
  }
  if (op.signed_input) text += *op.signed_input ? " input=signed" : " input=unsigned";
  if (op.weight_format) {
    text += " weights=" + std::string(dtype_name(op.weight_format->dtype));
    if (op.weight_format->group > 0) text += " group=" + std::to_string(op.weight_format->group);
  }
  return text;
}

// The opset each ONNX domain is imported at, taken from the first node of the domain; a node
// at another version spells its own ("onnx:Conv@11").
using DomainOpsets = std::map<std::string, int64_t>;

void note_opset(DomainOpsets& opsets, const OnnxNodeAttrs& node) {
  opsets.emplace(node.domain, node.opset);
}

DomainOpsets domain_opsets(const Graph& graph, const std::vector<NodeId>& ops) {
  DomainOpsets opsets;
  for (NodeId id : ops) {
    const Op& op = graph.op(id);
    if (const auto* node = std::get_if<OnnxNodeAttrs>(&op.attrs)) note_opset(opsets, *node);
    if (op.lowered_from) note_opset(opsets, *op.lowered_from);
  }
  return opsets;
}

// "onnx:Conv", "onnx:com.microsoft.Gelu", "onnx:Conv@11" off the domain's usual opset.
std::string node_type_text(const OnnxNodeAttrs& node, const DomainOpsets& opsets) {
  std::string text = "onnx:" + (node.domain.empty() ? "" : node.domain + ".") + node.op_type;
  if (opsets.at(node.domain) != node.opset) text += "@" + std::to_string(node.opset);
  return text;
}

// An imported node's operands or results in ONNX order: present ones from the graph's edges,
// omitted optional ones (Clip without `min`) as `_` in their slots.
std::string slots_text(const std::vector<std::string>& present,
                       const std::vector<int64_t>& omitted) {
  std::string text;
  std::size_t next = 0;
  const std::size_t slots = present.size() + omitted.size();
  for (std::size_t slot = 0; slot < slots; ++slot) {
    if (slot > 0) text += ", ";
    const bool is_omitted =
        std::find(omitted.begin(), omitted.end(), static_cast<int64_t>(slot)) != omitted.end();
    text += is_omitted || next >= present.size() ? "_" : present[next++];
  }
  return text;
}

std::string op_line(const Graph& graph, NodeId op_id, const DomainOpsets& opsets) {
  const Op& op = graph.op(op_id);
  std::vector<std::string> operands;
  for (NodeId input : graph.inputs_of(op_id)) {
    const Tensor& tensor = graph.tensor(input);
    operands.push_back("%" + name_text(tensor.name) + tensor_shape_text(tensor));
  }
  std::vector<std::string> results;
  for (NodeId output : graph.outputs_of(op_id)) {
    results.push_back(tensor_definition_text(graph.tensor(output)));
  }
  const auto* node = std::get_if<OnnxNodeAttrs>(&op.attrs);
  const std::vector<int64_t> none;
  const std::string type = node ? node_type_text(*node, opsets) : op_type_name(op);
  const std::string attributes = op_full_attributes_text(op.attrs);
  // An op without a dtype runs in whatever its unit computes natively.
  const std::string dtype = op.dtype ? std::string(dtype_name(*op.dtype)) : "native";
  std::string line = "%" + name_text(op.name) + " = " + type + "(" +
                     slots_text(operands, node ? node->omitted_inputs : none) + ") " + attributes +
                     (attributes.empty() ? "" : " ") + "-> " +
                     slots_text(results, node ? node->omitted_outputs : none) + " " + dtype +
                     placement_text(op);
  // The imported node a canonical op came from: fusion and layout passes read its type and
  // attributes (a Transpose's perm, a Softmax's axis).
  if (op.lowered_from) {
    const std::string from_attributes = onnx_attributes_text(*op.lowered_from);
    line += " from " + node_type_text(*op.lowered_from, opsets) +
            (from_attributes.empty() ? "" : " {" + from_attributes + "}");
  }
  return line + "\n";
}

// Why a graph read back from this text cannot be executed: the graph's own reason, or that
// the text leaves out some constant's values.
std::string functional_unavailable_text(const Graph& graph) {
  if (!graph.functional_available()) return graph.functional_unavailable_reason();
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (!graph.is_op(id)) {
      if (contents_elided(graph.tensor(id))) return kElidedValuesReason;
      continue;
    }
    const auto* node = std::get_if<OnnxNodeAttrs>(&graph.op(id).attrs);
    if (node == nullptr) continue;
    for (const auto& [name, value] : node->attributes) {
      const auto* tensor = std::get_if<Tensor>(&value);
      if (tensor != nullptr && contents_elided(*tensor)) return kElidedValuesReason;
    }
  }
  return "";
}

}  // namespace

std::string print_graph(const Graph& graph) {
  const std::vector<NodeId> ops = graph.topological_ops();
  std::string text = "graph " + quoted_text(graph.name()) + "\n";
  const DomainOpsets opsets = domain_opsets(graph, ops);
  for (const auto& [domain, opset] : opsets) {
    text += "opset " + quoted_text(domain) + " " + std::to_string(opset) + "\n";
  }
  if (const std::string reason = functional_unavailable_text(graph); !reason.empty()) {
    text += "unavailable " + quoted_text(reason) + "\n";
  }
  // Tensors no op writes: the model's inputs and its weights, in the order they were added.
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) || boost::in_degree(id, graph.storage()) > 0) continue;
    const Tensor& tensor = graph.tensor(id);
    text += (tensor.role == TensorRole::kWeight ? "weight " : "input ") +
            tensor_definition_text(tensor) + "\n";
  }
  for (NodeId id : ops) text += op_line(graph, id, opsets);
  std::string outputs;
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) || graph.tensor(id).role != TensorRole::kOutput) continue;
    outputs += (outputs.empty() ? "" : ", ") + ("%" + name_text(graph.tensor(id).name));
  }
  if (!outputs.empty()) text += "output " + outputs + "\n";
  // A repeated layer's later results, written over the first one's storage.
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) || graph.tensor(id).storage_of.empty()) continue;
    text += "storage %" + name_text(graph.tensor(id).name) + " = %" +
            name_text(graph.tensor(id).storage_of) + "\n";
  }
  return text;
}

}  // namespace polyarch::ir
