#include "compiler/frontend/layer_list_ops.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "compiler/frontend/block_sparse_keys.h"

namespace polyarch::frontend {

namespace {

// Large enough for any real tensor dimension, small enough that products of a few of them are
// still caught by the checked 64-bit arithmetic rather than wrapping.
constexpr int64_t kMaxDim = int64_t{1} << 40;

// Each elementwise operand becomes its own tensor; ONNX's variadic Sum/Max/Min rarely take more.
constexpr int64_t kMaxElementwiseInputs = 64;

struct ElementwiseFunction {
  std::string name;
  int64_t default_inputs;  // full-size operands when the layer does not say
};

// Lowering names an Elementwise op after its ONNX operator, lower-cased (lower_elementwise.cpp);
// silu (x * sigmoid(x), one fused op in most runtimes) and copy have no ONNX operator of their
// own. Softmax, LayerNormalization, Identity and Dropout lower to other kinds, so are not here.
const std::vector<ElementwiseFunction>& elementwise_functions() {
  static const std::vector<ElementwiseFunction> functions = {
      {"add", 2},         {"sub", 2},     {"mul", 2},         {"div", 2},
      {"pow", 2},         {"max", 2},     {"min", 2},         {"sum", 2},
      {"mod", 2},         {"and", 2},     {"or", 2},          {"xor", 2},
      {"equal", 2},       {"greater", 2}, {"less", 2},        {"greaterorequal", 2},
      {"lessorequal", 2}, {"where", 3},   {"relu", 1},        {"leakyrelu", 1},
      {"clip", 1},        {"sigmoid", 1}, {"hardsigmoid", 1}, {"hardswish", 1},
      {"tanh", 1},        {"erf", 1},     {"gelu", 1},        {"silu", 1},
      {"exp", 1},         {"log", 1},     {"sqrt", 1},        {"reciprocal", 1},
      {"neg", 1},         {"abs", 1},     {"not", 1},         {"isnan", 1},
      {"isinf", 1},       {"cast", 1},    {"quantize", 1},    {"dequantize", 1},
      {"batchnorm", 1},   {"copy", 1},
  };
  return functions;
}

// What lowering's ReduceMean/Sum/Max/Min/Prod produce (lower_compute.cpp).
const std::vector<std::string> kReduceFunctions = {"sum", "mean", "max", "min", "prod"};
const std::vector<std::string> kPoolKinds = {"max", "avg"};

int64_t required_dim(MapReader& layer, const std::string& key) {
  return layer.required_int(key, 1, kMaxDim);
}

int64_t optional_dim(MapReader& layer, const std::string& key, int64_t fallback) {
  return layer.optional_int(key, fallback, 1, kMaxDim);
}

// Where to point at a check that involves an optional key: the key when given, else the layer.
const ConfigNode& key_or_layer(MapReader& layer, const std::string& key) {
  const ConfigNode* value = layer.optional(key);
  return value != nullptr ? *value : layer.node();
}

void require_divisible(MapReader& layer, const std::string& key, const std::string& what,
                       int64_t dividend, int64_t divisor) {
  if (dividend % divisor == 0) return;
  throw_bad_input(key_or_layer(layer, key).where(),
                  what + " are not divisible by " + key + "=" + std::to_string(divisor));
}

// A convolution filter or pooling window along one axis must fit the zero-padded input.
// Checked here, not only in validate_op, so the error points at the window's key.
void require_window_fits(MapReader& layer, const std::string& key, const std::string& what,
                         int64_t window, int64_t padded, const std::string& axis) {
  if (window <= padded) return;
  throw_bad_input(layer.required(key).where(), what + " " + key + "=" + std::to_string(window) +
                                                   " is larger than the padded input " + axis +
                                                   " " + std::to_string(padded));
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

ir::OpAttrs read_gemm(MapReader& layer) {
  ir::GemmAttrs gemm;
  gemm.m = required_dim(layer, "m");
  gemm.n = required_dim(layer, "n");
  gemm.k = required_dim(layer, "k");
  gemm.batch = optional_dim(layer, "batch", 1);
  return gemm;
}

// What conv2d and pool share: the NCHW input n (default 1), c, h, w and the r x s window.
std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t> read_input_and_window(
    MapReader& layer) {
  const int64_t n = optional_dim(layer, "n", 1);
  const int64_t c = required_dim(layer, "c");
  const int64_t h = required_dim(layer, "h");
  const int64_t w = required_dim(layer, "w");
  const int64_t r = required_dim(layer, "r");
  return {n, c, h, w, r, required_dim(layer, "s")};
}

ir::OpAttrs read_conv(MapReader& layer) {
  ir::Conv2dAttrs conv;
  std::tie(conv.n, conv.c, conv.h, conv.w, conv.r, conv.s) = read_input_and_window(layer);
  conv.k = required_dim(layer, "k");
  std::tie(conv.stride_h, conv.stride_w) = read_pair(layer, "stride", 1, 1);
  std::tie(conv.pad_h, conv.pad_w) = read_pair(layer, "pad", 0, 0);
  conv.groups = optional_dim(layer, "groups", 1);
  require_divisible(layer, "groups", "channels c=" + std::to_string(conv.c), conv.c, conv.groups);
  require_divisible(layer, "groups", "filters k=" + std::to_string(conv.k), conv.k, conv.groups);
  require_window_fits(layer, "r", "filter height", conv.r, conv.h + 2 * conv.pad_h, "height");
  require_window_fits(layer, "s", "filter width", conv.s, conv.w + 2 * conv.pad_w, "width");
  return conv;
}

// Grouped-query attention when kv_heads < h; a decode step when kv_len > s.
ir::OpAttrs read_attention(MapReader& layer) {
  ir::AttentionAttrs attention;
  attention.b = optional_dim(layer, "b", 1);
  attention.h = required_dim(layer, "h");
  attention.kv_heads = optional_dim(layer, "kv_heads", attention.h);
  attention.s = required_dim(layer, "s");
  attention.kv_len = optional_dim(layer, "kv_len", attention.s);
  attention.d = required_dim(layer, "d");
  attention.causal = layer.optional_bool("causal", false);
  // Tokens each query sees (a sliding window, attention_visibility.h); absent: all of them.
  attention.window = optional_dim(layer, "window", 0);
  require_divisible(layer, "kv_heads", "heads h=" + std::to_string(attention.h), attention.h,
                    attention.kv_heads);
  if (attention.window > 0 && attention.s > attention.kv_len) {
    throw_bad_input(layer.required("window").where(),
                    "a window needs the queries to be the last s of the kv_len positions: s=" +
                        std::to_string(attention.s) + " exceeds kv_len=" +
                        std::to_string(attention.kv_len));
  }
  // A block-sparse pattern (block_sparse_keys.h); after the lengths and the causal flag it
  // depends on.
  attention.block_sparse = read_block_sparse_keys(layer, attention);
  // The library's kernel (ir::AttentionKernel), as the source of a measurement states it.
  attention.kernel = *ir::parse_attention_kernel(
      layer.optional_enum("kernel", "flash3", ir::attention_kernel_names()));
  return attention;
}

std::pair<int64_t, int64_t> read_rows_cols(MapReader& layer) {
  const int64_t rows = required_dim(layer, "rows");
  return {rows, required_dim(layer, "cols")};
}

ir::OpAttrs read_norm(MapReader& layer, ir::NormKind kind) {
  ir::NormAttrs norm;
  norm.kind = kind;
  std::tie(norm.rows, norm.cols) = read_rows_cols(layer);
  return norm;
}

ir::OpAttrs read_softmax(MapReader& layer) {
  ir::SoftmaxAttrs softmax;
  std::tie(softmax.rows, softmax.cols) = read_rows_cols(layer);
  return softmax;
}

ir::OpAttrs read_elementwise(MapReader& layer) {
  ir::ElementwiseAttrs elementwise;
  elementwise.fn = layer.required_enum("fn", elementwise_function_names());
  elementwise.elements = required_dim(layer, "elements");
  const auto& functions = elementwise_functions();
  const auto function =
      std::find_if(functions.begin(), functions.end(),
                   [&](const ElementwiseFunction& known) { return known.name == elementwise.fn; });
  elementwise.inputs =
      layer.optional_int("inputs", function->default_inputs, 1, kMaxElementwiseInputs);
  return elementwise;
}

// `fn` defaults to sum, the plain reduction; mean and max are asked for by name. (DESIGN.md
// gives no default; ir::ReduceAttrs' own, mean, is only a placeholder that lowering overwrites.)
ir::OpAttrs read_reduce(MapReader& layer) {
  ir::ReduceAttrs reduce;
  std::tie(reduce.rows, reduce.cols) = read_rows_cols(layer);
  reduce.fn = layer.optional_enum("fn", "sum", kReduceFunctions);
  return reduce;
}

ir::OpAttrs read_pool(MapReader& layer) {
  ir::PoolAttrs pool;
  std::tie(pool.n, pool.c, pool.h, pool.w, pool.r, pool.s) = read_input_and_window(layer);
  pool.stride = optional_dim(layer, "stride", 1);
  pool.pad = layer.optional_int("pad", 0, 0, kMaxDim);
  pool.kind = layer.optional_enum("kind", "max", kPoolKinds) == "avg" ? ir::PoolKind::kAvg
                                                                      : ir::PoolKind::kMax;
  require_window_fits(layer, "r", "window height", pool.r, pool.h + 2 * pool.pad, "height");
  require_window_fits(layer, "s", "window width", pool.s, pool.w + 2 * pool.pad, "width");
  return pool;
}

using LayerReader = ir::OpAttrs (*)(MapReader&);

const std::vector<std::pair<std::string, LayerReader>>& layer_readers() {
  static const std::vector<std::pair<std::string, LayerReader>> readers = {
      {"gemm", read_gemm},
      {"conv2d", read_conv},
      {"attention", read_attention},
      {"layernorm", [](MapReader& layer) { return read_norm(layer, ir::NormKind::kLayerNorm); }},
      {"rmsnorm", [](MapReader& layer) { return read_norm(layer, ir::NormKind::kRmsNorm); }},
      {"softmax", read_softmax},
      {"elementwise", read_elementwise},
      {"reduce", read_reduce},
      {"pool", read_pool},
  };
  return readers;
}

}  // namespace

const std::vector<std::string>& layer_list_op_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const auto& [name, reader] : layer_readers()) list.push_back(name);
    return list;
  }();
  return names;
}

const std::vector<std::string>& elementwise_function_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const ElementwiseFunction& function : elementwise_functions()) {
      list.push_back(function.name);
    }
    return list;
  }();
  return names;
}

ir::OpAttrs read_layer_attrs(MapReader& layer, const std::string& op_name) {
  for (const auto& [name, reader] : layer_readers()) {
    if (name == op_name) return reader(layer);
  }
  throw_runtime(layer.node().where(), "layer op '" + op_name + "' has no reader");
}

}  // namespace polyarch::frontend
