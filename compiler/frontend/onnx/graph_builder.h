#pragma once
// Assembles the IR graph from an ONNX GraphProto: tensors for initializers, inputs and node
// results; one OnnxNodeAttrs op per node, connected in ONNX operand order.
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/frontend/onnx/model_file.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/onnx/value_info.h"

namespace polyarch::frontend::onnx_import {

class GraphBuilder {
 public:
  GraphBuilder(const onnx::GraphProto& proto, const std::filesystem::path& path, Opsets opsets);

  // Fills import.graph, input_names, output_names and op_type_counts.
  void build(OnnxImport& import);

 private:
  void add_initializers(ir::Graph& graph);
  void collect_declared_types();
  void add_graph_inputs(ir::Graph& graph, OnnxImport& import);
  void add_nodes(ir::Graph& graph, OnnxImport& import);
  void add_node_outputs(ir::Graph& graph, int index, ir::NodeId op_id);
  void connect_node_inputs(ir::Graph& graph, int index, ir::NodeId op_id);
  void mark_graph_outputs(ir::Graph& graph, OnnxImport& import);

  ir::Op op_of_node(int index);
  std::string op_name(int index);
  SourceLocation node_location(int index) const;  // only once op_name(index) has run

  const onnx::GraphProto& proto_;
  std::string file_;
  std::filesystem::path model_dir_;
  Opsets opsets_;
  std::unordered_map<std::string, ir::NodeId> tensor_ids_;
  std::map<std::string, DeclaredType> declared_;
  std::set<std::string> op_names_;
  std::vector<std::string> node_names_;  // op name per node index, once assigned
};

}  // namespace polyarch::frontend::onnx_import
