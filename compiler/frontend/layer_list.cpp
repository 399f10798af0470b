#include "compiler/frontend/layer_list.h"

#include <algorithm>
#include <set>

#include "compiler/frontend/layer_graph.h"

namespace polyarch::frontend {

namespace {

// Large enough for any real tensor dimension, small enough that products of a few of them are
// still caught by the checked 64-bit arithmetic rather than wrapping.
constexpr int64_t kMaxDim = int64_t{1} << 40;

const std::vector<std::string> kSupportedOps = {"gemm", "conv2d"};
// Ops DESIGN.md names for layer lists whose IR kinds do not exist yet.
const std::vector<std::string> kPlannedOps = {"attention",   "layernorm", "rmsnorm", "softmax",
                                              "elementwise", "reduce",    "pool"};

ir::GemmAttrs read_gemm(MapReader& layer) {
  ir::GemmAttrs gemm;
  gemm.m = layer.required_int("m", 1, kMaxDim);
  gemm.n = layer.required_int("n", 1, kMaxDim);
  gemm.k = layer.required_int("k", 1, kMaxDim);
  gemm.batch = layer.optional_int("batch", 1, 1, kMaxDim);
  return gemm;
}

// `stride: 2` or `stride_h: 2, stride_w: 1` (likewise pad); mixing both forms is ambiguous.
std::pair<int64_t, int64_t> read_pair(MapReader& layer, const std::string& key, int64_t fallback,
                                      int64_t min_value) {
  const ConfigNode* both = layer.optional(key);
  const ConfigNode* along_h = layer.optional(key + "_h");
  const ConfigNode* along_w = layer.optional(key + "_w");
  if (both != nullptr && (along_h != nullptr || along_w != nullptr)) {
    const ConfigNode& second = along_h != nullptr ? *along_h : *along_w;
    throw_bad_input(second.where(),
                    "give either '" + key + "' or '" + key + "_h'/'" + key + "_w', not both");
  }
  const int64_t shared = both ? both->as_int(min_value, kMaxDim) : fallback;
  return {along_h ? along_h->as_int(min_value, kMaxDim) : shared,
          along_w ? along_w->as_int(min_value, kMaxDim) : shared};
}

ir::Conv2dAttrs read_conv(MapReader& layer) {
  ir::Conv2dAttrs conv;
  conv.n = layer.optional_int("n", 1, 1, kMaxDim);
  conv.c = layer.required_int("c", 1, kMaxDim);
  conv.h = layer.required_int("h", 1, kMaxDim);
  conv.w = layer.required_int("w", 1, kMaxDim);
  conv.k = layer.required_int("k", 1, kMaxDim);
  conv.r = layer.required_int("r", 1, kMaxDim);
  conv.s = layer.required_int("s", 1, kMaxDim);
  std::tie(conv.stride_h, conv.stride_w) = read_pair(layer, "stride", 1, 1);
  std::tie(conv.pad_h, conv.pad_w) = read_pair(layer, "pad", 0, 0);
  conv.groups = layer.optional_int("groups", 1, 1, kMaxDim);

  // Checked here, not only in validate_op, so the error points at the offending key.
  const ConfigNode& groups_node = layer.has("groups") ? *layer.optional("groups") : layer.node();
  if (conv.c % conv.groups != 0) {
    throw_bad_input(groups_node.where(),
                    "channels c=" + std::to_string(conv.c) +
                        " are not divisible by groups=" + std::to_string(conv.groups));
  }
  if (conv.k % conv.groups != 0) {
    throw_bad_input(groups_node.where(),
                    "filters k=" + std::to_string(conv.k) +
                        " are not divisible by groups=" + std::to_string(conv.groups));
  }
  if (conv.r > conv.h + 2 * conv.pad_h) {
    throw_bad_input(layer.required("r").where(), "filter height r=" + std::to_string(conv.r) +
                                                     " is larger than the padded input height " +
                                                     std::to_string(conv.h + 2 * conv.pad_h));
  }
  if (conv.s > conv.w + 2 * conv.pad_w) {
    throw_bad_input(layer.required("s").where(), "filter width s=" + std::to_string(conv.s) +
                                                     " is larger than the padded input width " +
                                                     std::to_string(conv.w + 2 * conv.pad_w));
  }
  return conv;
}

std::string read_op_kind(MapReader& layer) {
  const ConfigNode& op_node = layer.required("op");
  const std::string kind = op_node.is_scalar() ? op_node.scalar() : "";
  if (std::find(kPlannedOps.begin(), kPlannedOps.end(), kind) != kPlannedOps.end()) {
    throw_bad_input(op_node.where(),
                    "op '" + kind + "' is not supported yet (supported: gemm, conv2d)");
  }
  return layer.required_enum("op", kSupportedOps);
}

ir::Op read_layer(const ConfigNode& node, std::size_t index) {
  MapReader layer(node);
  ir::Op op;
  op.name = layer.optional_string("name", "layer" + std::to_string(index));
  if (op.name.empty()) throw_bad_input(layer.required("name").where(), "layer name is empty");
  op.where = node.where();
  const std::string kind = read_op_kind(layer);
  if (layer.has("dtype")) {
    op.dtype = ir::parse_dtype(layer.required_enum("dtype", ir::dtype_names()));
  }
  if (kind == "gemm") {
    op.attrs = read_gemm(layer);
  } else {
    op.attrs = read_conv(layer);
  }
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
