#include "compiler/ir/op.h"

#include "base/checked_math.h"

namespace polyarch::ir {

std::string_view op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::kGemm:
      return "gemm";
    case OpKind::kConv2d:
      return "conv2d";
    case OpKind::kAttention:
      return "attention";
    case OpKind::kElementwise:
      return "elementwise";
    case OpKind::kReduce:
      return "reduce";
    case OpKind::kNorm:
      return "norm";
    case OpKind::kSoftmax:
      return "softmax";
    case OpKind::kPool:
      return "pool";
    case OpKind::kEmbedding:
      return "embedding";
    case OpKind::kCopy:
      return "copy";
    case OpKind::kFrontend:
      return "frontend";
  }
  return "unknown";
}

OpKind op_kind_of(const OpAttrs& attrs) {
  static_assert(std::variant_size_v<OpAttrs> == static_cast<std::size_t>(OpKind::kFrontend) + 1,
                "OpAttrs alternatives and OpKind values must correspond one to one");
  return static_cast<OpKind>(attrs.index());
}

std::string_view norm_kind_name(NormKind kind) {
  return kind == NormKind::kRmsNorm ? "rmsnorm" : "layernorm";
}

std::string_view attention_kernel_name(AttentionKernel kernel) {
  return kernel == AttentionKernel::kFlash2 ? "flash2" : "flash3";
}

const std::vector<std::string>& attention_kernel_names() {
  static const std::vector<std::string> names = {"flash3", "flash2"};
  return names;
}

std::optional<AttentionKernel> parse_attention_kernel(std::string_view name) {
  if (name == "flash3") return AttentionKernel::kFlash3;
  if (name == "flash2") return AttentionKernel::kFlash2;
  return std::nullopt;
}

std::string_view layout_name(Layout layout) { return layout == Layout::kNhwc ? "nhwc" : "nchw"; }

std::string_view pool_kind_name(PoolKind kind) {
  switch (kind) {
    case PoolKind::kMax:
      return "max";
    case PoolKind::kAvg:
      return "avg";
    case PoolKind::kGlobal:
      return "global";
  }
  return "unknown";
}

std::string op_type_name(const Op& op) {
  const auto* node = std::get_if<OnnxNodeAttrs>(&op.attrs);
  if (node == nullptr) return std::string(op_kind_name(op.kind()));
  return "onnx:" + (node->domain.empty() ? "" : node->domain + ".") + node->op_type;
}

GemmView gemm_view(const Op& op) {
  GemmView view;
  if (const auto* gemm = std::get_if<GemmAttrs>(&op.attrs)) {
    view.m = gemm->m;
    view.n = gemm->n;
    view.k = gemm->k;
    view.repeats = gemm->batch;
    view.ifmap_distinct_elements = checked_mul(gemm->m, gemm->k, "gemm ifmap elements");
    return view;
  }
  const auto* conv_attrs = std::get_if<Conv2dAttrs>(&op.attrs);
  if (conv_attrs == nullptr) {
    // A caller reached for GEMM dimensions of an op that has none (or that the compiler has not
    // lowered yet): a pipeline or mapping bug, not a property of the user's model.
    const char* when = op.kind() == OpKind::kFrontend ? " before lowering" : "";
    throw_runtime(op.where,
                  "op '" + op.name + "' (" + op_type_name(op) + ") has no GEMM view" + when);
  }
  const Conv2dAttrs& conv = *conv_attrs;
  const int64_t channels_per_group = conv.c / conv.groups;
  // im2col per group: one row per output pixel, one column per (window position, channel).
  view.m = checked_mul(checked_mul(conv.n, conv.out_h(), "conv2d im2col rows"), conv.out_w(),
                       "conv2d im2col rows");
  view.k = checked_mul(checked_mul(conv.r, conv.s, "conv2d im2col columns"), channels_per_group,
                       "conv2d im2col columns");
  view.n = conv.k / conv.groups;
  view.repeats = conv.groups;
  view.ifmap_distinct_elements =
      checked_mul(checked_mul(checked_mul(conv.n, channels_per_group, "conv2d ifmap elements"),
                              conv.h, "conv2d ifmap elements"),
                  conv.w, "conv2d ifmap elements");
  return view;
}

}  // namespace polyarch::ir
