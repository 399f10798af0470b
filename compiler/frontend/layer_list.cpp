#include "compiler/frontend/layer_list.h"

#include <set>

#include "compiler/frontend/layer_graph.h"
#include "compiler/frontend/layer_list_ops.h"

namespace polyarch::frontend {

namespace {

ir::Op read_layer(const ConfigNode& node, std::size_t index) {
  MapReader layer(node);
  ir::Op op;
  op.name = layer.optional_string("name", "layer" + std::to_string(index));
  if (op.name.empty()) throw_bad_input(layer.required("name").where(), "layer name is empty");
  op.where = node.where();
  const std::string kind = layer.required_enum("op", layer_list_op_names());
  if (layer.has("dtype")) {
    op.dtype = ir::parse_dtype(layer.required_enum("dtype", ir::dtype_names()));
  }
  op.attrs = read_layer_attrs(layer, kind);
  if (layer.has("signed_input")) op.signed_input = layer.optional_bool("signed_input", false);
  layer.finish();
  return op;
}

}  // namespace

ir::Graph layer_list_from_config(const ConfigNode& root, const std::string& default_name) {
  MapReader top(root);
  ir::Graph graph(top.optional_string("name", default_name));
  const ConfigNode& layers = top.required("layers");
  top.finish();
  if (layers.items().empty()) throw_bad_input(layers.where(), "the layer list is empty");

  std::set<std::string> seen_names;
  for (std::size_t i = 0; i < layers.items().size(); ++i) {
    const ConfigNode& node = layers.items()[i];
    ir::Op op = read_layer(node, i);
    if (!seen_names.insert(op.name).second) {
      const ConfigNode* name_node = node.find("name");
      throw_bad_input(name_node ? name_node->where() : node.where(),
                      "duplicate layer name '" + op.name + "'");
    }
    add_standalone_layer(graph, std::move(op));
  }
  ir::infer_shapes(graph);
  return graph;
}

ir::Graph load_layer_list(const std::filesystem::path& path) {
  return layer_list_from_config(load_config_with_base(path), path.stem().string());
}

}  // namespace polyarch::frontend
