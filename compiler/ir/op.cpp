#include "compiler/ir/op.h"

#include <type_traits>

#include "compiler/support/checked_math.h"

namespace polyarch::ir {

std::string_view op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::kGemm:
      return "gemm";
    case OpKind::kConv2d:
      return "conv2d";
    case OpKind::kFrontend:
      return "frontend";
  }
  return "unknown";
}

OpKind op_kind_of(const OpAttrs& attrs) {
  if (std::holds_alternative<GemmAttrs>(attrs)) return OpKind::kGemm;
  if (std::holds_alternative<Conv2dAttrs>(attrs)) return OpKind::kConv2d;
  return OpKind::kFrontend;
}

std::string op_type_name(const Op& op) {
  const auto* node = std::get_if<OnnxNodeAttrs>(&op.attrs);
  if (node == nullptr) return std::string(op_kind_name(op.kind()));
  return "onnx:" + (node->domain.empty() ? "" : node->domain + ".") + node->op_type;
}

namespace {

int64_t gemm_macs(const GemmAttrs& gemm) {
  int64_t macs = checked_mul(gemm.batch, gemm.m, "gemm MACs");
  macs = checked_mul(macs, gemm.n, "gemm MACs");
  return checked_mul(macs, gemm.k, "gemm MACs");
}

int64_t conv_macs(const Conv2dAttrs& conv) {
  // Each output element of each filter accumulates over its group's channels and the window.
  int64_t macs = checked_mul(conv.n, conv.k, "conv2d MACs");
  macs = checked_mul(macs, conv.out_h(), "conv2d MACs");
  macs = checked_mul(macs, conv.out_w(), "conv2d MACs");
  macs = checked_mul(macs, conv.c / conv.groups, "conv2d MACs");
  macs = checked_mul(macs, conv.r, "conv2d MACs");
  return checked_mul(macs, conv.s, "conv2d MACs");
}

[[noreturn]] void op_error(const Op& op, const std::string& message) {
  SourceLocation where = op.where;
  if (where.file.empty() && where.key_path.empty()) where.key_path = op.name;
  throw_bad_input(where, "op '" + op.name + "': " + message);
}

void require_positive(const Op& op, const char* field, int64_t value) {
  if (value <= 0) {
    op_error(op, std::string(field) + " must be positive, got " + std::to_string(value));
  }
}

void validate_gemm(const Op& op, const GemmAttrs& gemm) {
  require_positive(op, "m", gemm.m);
  require_positive(op, "n", gemm.n);
  require_positive(op, "k", gemm.k);
  require_positive(op, "batch", gemm.batch);
  gemm_macs(gemm);  // rejects sizes whose MAC count overflows
}

void validate_conv(const Op& op, const Conv2dAttrs& conv) {
  require_positive(op, "n", conv.n);
  require_positive(op, "c", conv.c);
  require_positive(op, "h", conv.h);
  require_positive(op, "w", conv.w);
  require_positive(op, "k", conv.k);
  require_positive(op, "r", conv.r);
  require_positive(op, "s", conv.s);
  require_positive(op, "stride_h", conv.stride_h);
  require_positive(op, "stride_w", conv.stride_w);
  require_positive(op, "groups", conv.groups);
  if (conv.pad_h < 0 || conv.pad_w < 0) {
    op_error(op, "padding must not be negative, got " + std::to_string(conv.pad_h) + "x" +
                     std::to_string(conv.pad_w));
  }
  if (conv.c % conv.groups != 0) {
    op_error(op, "channels c=" + std::to_string(conv.c) +
                     " are not divisible by groups=" + std::to_string(conv.groups));
  }
  if (conv.k % conv.groups != 0) {
    op_error(op, "filters k=" + std::to_string(conv.k) +
                     " are not divisible by groups=" + std::to_string(conv.groups));
  }
  const int64_t padded_h =
      checked_add(conv.h, checked_mul(2, conv.pad_h, "padded height"), "padded height");
  const int64_t padded_w =
      checked_add(conv.w, checked_mul(2, conv.pad_w, "padded width"), "padded width");
  if (conv.r > padded_h || conv.s > padded_w) {
    op_error(op, "filter " + std::to_string(conv.r) + "x" + std::to_string(conv.s) +
                     " is larger than the padded input " + std::to_string(padded_h) + "x" +
                     std::to_string(padded_w));
  }
  conv_macs(conv);
}

}  // namespace

int64_t mac_count(const Op& op) {
  return std::visit(
      [](const auto& attrs) -> int64_t {
        using Attrs = std::decay_t<decltype(attrs)>;
        if constexpr (std::is_same_v<Attrs, GemmAttrs>) {
          return gemm_macs(attrs);
        } else if constexpr (std::is_same_v<Attrs, Conv2dAttrs>) {
          return conv_macs(attrs);
        } else {
          return 0;
        }
      },
      op.attrs);
}

void validate_op(const Op& op) {
  if (op.name.empty()) throw_bad_input(op.where, "op has an empty name");
  if (const auto* gemm = std::get_if<GemmAttrs>(&op.attrs)) {
    validate_gemm(op, *gemm);
  } else if (const auto* conv = std::get_if<Conv2dAttrs>(&op.attrs)) {
    validate_conv(op, *conv);
  } else if (std::get<OnnxNodeAttrs>(op.attrs).op_type.empty()) {
    op_error(op, "ONNX node has an empty op_type");
  }
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
    // A caller reached for GEMM dimensions of an op the compiler has not lowered: a pipeline
    // ordering bug, not a property of the user's model.
    throw_runtime(op.where, "op '" + op.name + "' (" + op_type_name(op) +
                                ") has no GEMM view before lowering");
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
