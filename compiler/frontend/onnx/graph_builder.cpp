#include "compiler/frontend/onnx/graph_builder.h"

#include "compiler/frontend/onnx/constant_node.h"
#include "compiler/frontend/onnx/node_attributes.h"
#include "compiler/frontend/onnx/tensor_proto.h"

namespace polyarch::frontend::onnx_import {

GraphBuilder::GraphBuilder(const onnx::GraphProto& proto, const std::filesystem::path& path,
                           Opsets opsets)
    : proto_(proto),
      file_(path.string()),
      model_dir_(path.parent_path()),
      opsets_(std::move(opsets)) {}

void GraphBuilder::build(OnnxImport& import) {
  ir::Graph& graph = import.graph;
  if (proto_.sparse_initializer_size() > 0) {
    throw_bad_input({file_, 0, 0, "graph.sparse_initializer"},
                    "sparse initializers are not supported");
  }
  collect_declared_types();
  add_initializers(graph);
  add_graph_inputs(graph, import);
  add_nodes(graph, import);
  mark_graph_outputs(graph, import);
  graph.topological_ops();  // a cycle is an error naming an op on it
}

void GraphBuilder::collect_declared_types() {
  // value_info first, graph outputs last: an output's own declaration is the authoritative one.
  for (int i = 0; i < proto_.value_info_size(); ++i) {
    const onnx::ValueInfoProto& value = proto_.value_info(i);
    declared_[value.name()] =
        declared_type(value, {file_, 0, 0, "graph.value_info[" + std::to_string(i) + "]"});
  }
  for (int i = 0; i < proto_.output_size(); ++i) {
    const onnx::ValueInfoProto& value = proto_.output(i);
    DeclaredType type =
        declared_type(value, {file_, 0, 0, "graph.output[" + std::to_string(i) + "]"});
    DeclaredType& known = declared_[value.name()];
    if (type.dtype) known.dtype = type.dtype;
    if (type.shape) known.shape = type.shape;
  }
}

void GraphBuilder::add_initializers(ir::Graph& graph) {
  for (int i = 0; i < proto_.initializer_size(); ++i) {
    const onnx::TensorProto& proto = proto_.initializer(i);
    const SourceLocation where{file_, 0, 0, "graph.initializer[" + std::to_string(i) + "]"};
    if (proto.name().empty()) throw_bad_input(where, "initializer without a name");
    if (tensor_ids_.count(proto.name()) > 0) {
      throw_bad_input(where, "initializer '" + proto.name() + "' is defined twice");
    }
    ImportedTensor imported = tensor_from_proto(proto, ir::TensorRole::kWeight, model_dir_, where);
    if (!imported.missing_external_file.empty()) {
      graph.mark_functional_unavailable("initializer '" + proto.name() + "' keeps its data in '" +
                                        imported.missing_external_file +
                                        "', which does not exist (a structure-only model)");
    }
    tensor_ids_[proto.name()] = graph.add_tensor(std::move(imported.tensor));
  }
}

void GraphBuilder::add_graph_inputs(ir::Graph& graph, OnnxImport& import) {
  for (int i = 0; i < proto_.input_size(); ++i) {
    const onnx::ValueInfoProto& value = proto_.input(i);
    // Exports before IR version 4 list every initializer as a graph input as well.
    if (tensor_ids_.count(value.name()) > 0) continue;
    const SourceLocation where{file_, 0, 0, "graph.input[" + std::to_string(i) + "]"};
    DeclaredType type = declared_type(value, where);
    const auto elsewhere = declared_.find(value.name());
    if (!type.shape && elsewhere != declared_.end() && elsewhere->second.shape) {
      type.shape = elsewhere->second.shape;  // value_info fixes what the input left symbolic
    }
    if (!type.shape) {
      throw_bad_input(where, "graph input '" + value.name() + "' has " +
                                 (type.symbolic_dim.empty()
                                      ? std::string("no fixed shape")
                                      : "a symbolic dimension '" + type.symbolic_dim + "'") +
                                 "; export the model with fixed input sizes");
    }
    if (!type.dtype) throw_bad_input(where, "graph input '" + value.name() + "' has no type");
    ir::Tensor tensor;
    tensor.name = value.name();
    tensor.shape = *type.shape;
    tensor.scalar = tensor.shape.empty();
    tensor.dtype = *type.dtype;
    tensor.role = ir::TensorRole::kActivation;
    tensor_ids_[value.name()] = graph.add_tensor(std::move(tensor));
    import.input_names.push_back(value.name());
  }
}

void GraphBuilder::add_nodes(ir::Graph& graph, OnnxImport& import) {
  // All results first, then operands: ONNX requires topological node order, but a model that
  // breaks it (or has a cycle) should get the cycle error from the graph, not a confusing
  // "missing input".
  std::vector<ir::NodeId> op_ids;
  for (int index = 0; index < proto_.node_size(); ++index) {
    ir::Op op = op_of_node(index);
    ++import.op_type_counts[ir::op_type_name(op)];
    const ir::NodeId op_id = graph.add_op(std::move(op));
    add_node_outputs(graph, index, op_id);
    op_ids.push_back(op_id);
  }
  for (int index = 0; index < proto_.node_size(); ++index) {
    connect_node_inputs(graph, index, op_ids[static_cast<std::size_t>(index)]);
  }
}

ir::Op GraphBuilder::op_of_node(int index) {
  const onnx::NodeProto& node = proto_.node(index);
  ir::Op op;
  op.name = op_name(index);
  const SourceLocation where = node_location(index);
  if (node.op_type().empty()) throw_bad_input(where, "node without an op_type");
  ir::OnnxNodeAttrs attrs;
  attrs.op_type = node.op_type();
  attrs.domain = canonical_domain(node.domain());
  const auto opset = opsets_.find(attrs.domain);
  if (opset == opsets_.end()) {
    throw_bad_input(where, "domain '" + attrs.domain + "' is not in the model's opset_import");
  }
  attrs.opset = opset->second;
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    attrs.attributes[attribute.name()] = attribute_value(attribute, model_dir_, where);
  }
  for (int i = 0; i < node.input_size(); ++i) {
    if (node.input(i).empty()) attrs.omitted_inputs.push_back(i);
  }
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty()) attrs.omitted_outputs.push_back(i);
  }
  op.attrs = std::move(attrs);
  op.where = where;
  return op;
}

std::string GraphBuilder::op_name(int index) {
  const onnx::NodeProto& node = proto_.node(index);
  // append() rather than operator+: GCC 12 warns falsely (-Wrestrict) on "_" + string.
  const std::string suffix = std::string("_").append(std::to_string(index));
  std::string name = node.name().empty() ? node.op_type() + suffix : node.name();
  // Names are optional in ONNX and need not be unique; ops in the IR are found by name.
  if (op_names_.count(name) > 0) name += suffix;
  op_names_.insert(name);
  node_names_.push_back(name);
  return name;
}

void GraphBuilder::add_node_outputs(ir::Graph& graph, int index, ir::NodeId op_id) {
  const onnx::NodeProto& node = proto_.node(index);
  const ir::Op& op = graph.op(op_id);
  std::optional<ir::Tensor> constant;
  if (node.op_type() == "Constant" && op.kind() == ir::OpKind::kFrontend) {
    constant = constant_value(std::get<ir::OnnxNodeAttrs>(op.attrs), node_location(index));
  }
  for (const std::string& name : node.output()) {
    if (name.empty()) continue;
    if (tensor_ids_.count(name) > 0) {
      throw_bad_input(node_location(index),
                      "output '" + name +
                          "' is already defined (by a graph input, an initializer or another "
                          "node)");
    }
    ir::Tensor tensor;
    if (constant) {
      tensor = *constant;
    } else {
      const auto declared = declared_.find(name);
      if (declared != declared_.end()) {
        if (declared->second.shape) tensor.shape = *declared->second.shape;
        tensor.scalar = declared->second.shape && declared->second.shape->empty();
        if (declared->second.dtype) tensor.dtype = *declared->second.dtype;
        tensor.dtype_known = declared->second.dtype.has_value();
      } else {
        tensor.dtype_known = false;
      }
    }
    tensor.name = name;
    tensor.role = ir::TensorRole::kActivation;
    const ir::NodeId tensor_id = graph.add_tensor(std::move(tensor));
    graph.connect(op_id, tensor_id);
    tensor_ids_[name] = tensor_id;
  }
}

void GraphBuilder::connect_node_inputs(ir::Graph& graph, int index, ir::NodeId op_id) {
  for (const std::string& name : proto_.node(index).input()) {
    if (name.empty()) continue;  // an omitted optional input
    const auto found = tensor_ids_.find(name);
    if (found == tensor_ids_.end()) {
      throw_bad_input(
          node_location(index),
          "input '" + name + "' is not a graph input, an initializer or any node's output");
    }
    graph.connect(found->second, op_id);
  }
}

void GraphBuilder::mark_graph_outputs(ir::Graph& graph, OnnxImport& import) {
  for (int i = 0; i < proto_.output_size(); ++i) {
    const std::string& name = proto_.output(i).name();
    const auto found = tensor_ids_.find(name);
    if (found == tensor_ids_.end()) {
      throw_bad_input({file_, 0, 0, "graph.output[" + std::to_string(i) + "]"},
                      "graph output '" + name + "' is not produced by any node");
    }
    ir::Tensor& tensor = graph.tensor(found->second);
    if (tensor.role == ir::TensorRole::kActivation) tensor.role = ir::TensorRole::kOutput;
    import.output_names.push_back(name);
  }
}

// "graph.node[12] 'attn/MatMul' (MatMul)": errors about a node name its position, its name
// and its op type, so the user can find it in Netron or the exporter's trace.
SourceLocation GraphBuilder::node_location(int index) const {
  return {file_, 0, 0,
          "graph.node[" + std::to_string(index) + "] '" +
              node_names_[static_cast<std::size_t>(index)] + "' (" + proto_.node(index).op_type() +
              ")"};
}

}  // namespace polyarch::frontend::onnx_import
