#include "compiler/frontend/layer_list.h"

#include <set>

#include "compiler/frontend/layer_graph.h"
#include "compiler/frontend/layer_list_ops.h"

namespace polyarch::frontend {

namespace {

// Enough copies for a sustained-load run of small ops; more would make reports of millions
// of ops.
constexpr int64_t kMaxRepeat = 65536;

struct Layer {
  ir::Op op;
  int64_t repeat = 1;
};

// How a gemm's or conv2d's weights (weight_dtype, weight_group) and an attention's KV cache
// (kv_dtype) are stored, where they are not in the op's type.
void read_storage_types(MapReader& layer, const std::string& kind, ir::Op& op) {
  if (kind == "gemm" || kind == "conv2d") {
    if (layer.has("weight_dtype")) {
      ir::WeightFormat format;
      format.dtype = *ir::parse_dtype(layer.required_enum("weight_dtype", ir::dtype_spellings()));
      format.group = layer.optional_int("weight_group", 0, 1, int64_t{1} << 30);
      op.weight_format = format;
    } else if (layer.has("weight_group")) {
      throw_bad_input(layer.required("weight_group").where(),
                      "weight_group needs weight_dtype (the type the grouped weights are stored in)");
    }
    const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs);
    if (op.weight_format && gemm != nullptr && gemm->batch > 1) {
      throw_bad_input(layer.required("weight_dtype").where(),
                      "weight_dtype needs one weight matrix (a batched gemm's B is an "
                      "activation per batch entry)");
    }
  }
  if (kind == "attention" && layer.has("kv_dtype")) {
    std::get<ir::AttentionAttrs>(op.attrs).kv_dtype =
        ir::parse_dtype(layer.required_enum("kv_dtype", ir::dtype_spellings()));
  }
}

Layer read_layer(const ConfigNode& node, std::size_t index) {
  MapReader layer(node);
  Layer read;
  ir::Op& op = read.op;
  op.name = layer.optional_string("name", "layer" + std::to_string(index));
  if (op.name.empty()) throw_bad_input(layer.required("name").where(), "layer name is empty");
  op.where = node.where();
  const std::string kind = layer.required_enum("op", layer_list_op_names());
  if (layer.has("dtype")) {
    op.dtype = ir::parse_dtype(layer.required_enum("dtype", ir::dtype_spellings()));
  }
  op.attrs = read_layer_attrs(layer, kind);
  read_storage_types(layer, kind, op);
  if (layer.has("signed_input")) op.signed_input = layer.optional_bool("signed_input", false);
  read.repeat = layer.optional_int("repeat", 1, 1, kMaxRepeat);
  layer.finish();
  return read;
}

void require_new_name(std::set<std::string>& seen_names, const std::string& name,
                      const ConfigNode& node) {
  if (seen_names.insert(name).second) return;
  const ConfigNode* name_node = node.find("name");
  throw_bad_input(name_node ? name_node->where() : node.where(),
                  "duplicate layer name '" + name + "'");
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
    Layer layer = read_layer(node, i);
    if (layer.repeat == 1) {
      require_new_name(seen_names, layer.op.name, node);
      add_standalone_layer(graph, std::move(layer.op));
      continue;
    }
    for (int64_t copy = 1; copy <= layer.repeat; ++copy) {
      require_new_name(seen_names, repeated_layer_name(layer.op.name, copy), node);
    }
    add_repeated_layer(graph, std::move(layer.op), layer.repeat);
  }
  ir::infer_shapes(graph);
  return graph;
}

ir::Graph load_layer_list(const std::filesystem::path& path) {
  return layer_list_from_config(load_config_with_base(path), path.stem().string());
}

}  // namespace polyarch::frontend
