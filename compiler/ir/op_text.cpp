#include "compiler/ir/op_text.h"

#include <type_traits>

#include "compiler/ir/attribute_text.h"
#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::ir {

namespace {

std::string number(int64_t value) { return std::to_string(value); }

std::string rows_cols(int64_t rows, int64_t cols) {
  return "rows=" + number(rows) + " cols=" + number(cols);
}

// " act=relu", " act=clip(max=6,min=0)": a fused activation and its constants.
std::string activation_text(const std::optional<Activation>& activation) {
  if (!activation) return "";
  std::string params;
  for (const auto& [name, value] : activation->params) {
    params += (params.empty() ? "" : ",") + name + "=" + attribute_value_text(value);
  }
  return " act=" + activation->fn + (params.empty() ? "" : "(" + params + ")");
}

}  // namespace

std::string op_attributes_text(const OpAttrs& attrs) {
  return std::visit(
      [](const auto& op) -> std::string {
        using Attrs = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Attrs, GemmAttrs>) {
          // The defaults (shared B, no bias) print nothing, so layer-list dumps read as before.
          return "m=" + number(op.m) + " n=" + number(op.n) + " k=" + number(op.k) +
                 " batch=" + number(op.batch) + (op.b_shared ? "" : " b_per_batch") +
                 (op.bias ? " bias" : "") + activation_text(op.activation);
        } else if constexpr (std::is_same_v<Attrs, Conv2dAttrs>) {
          // A dense window (dilation 1) prints nothing, so dumps read as before.
          const bool dilated = op.dilation_h != 1 || op.dilation_w != 1;
          return "stride=" + number(op.stride_h) + "x" + number(op.stride_w) +
                 " pad=" + number(op.pad_h) + "x" + number(op.pad_w) +
                 (dilated ? " dilation=" + number(op.dilation_h) + "x" + number(op.dilation_w)
                          : "") +
                 " groups=" + number(op.groups) + (op.bias ? " bias" : "") +
                 activation_text(op.activation);
        } else if constexpr (std::is_same_v<Attrs, AttentionAttrs>) {
          return "b=" + number(op.b) + " h=" + number(op.h) + " kv_heads=" + number(op.kv_heads) +
                 " s=" + number(op.s) + " kv_len=" + number(op.kv_len) + " d=" + number(op.d) +
                 (op.causal ? " causal" : "") +
                 (op.window > 0 ? " window=" + number(op.window) : "") +
                 block_sparse_text(op.block_sparse) +
                 (op.kv_dtype ? " kv_dtype=" + std::string(dtype_name(*op.kv_dtype)) : "") +
                 // The default kernel prints nothing, so dumps read as before.
                 (op.kernel != AttentionKernel::kFlash3
                      ? " kernel=" + std::string(attention_kernel_name(op.kernel))
                      : "");
        } else if constexpr (std::is_same_v<Attrs, ElementwiseAttrs>) {
          return "fn=" + op.fn + " elements=" + number(op.elements) +
                 " inputs=" + number(op.inputs) + (op.approximate_tanh ? " approximate=tanh" : "");
        } else if constexpr (std::is_same_v<Attrs, ReduceAttrs>) {
          return "fn=" + op.fn + " " + rows_cols(op.rows, op.cols);
        } else if constexpr (std::is_same_v<Attrs, NormAttrs>) {
          return std::string(norm_kind_name(op.kind)) + " " + rows_cols(op.rows, op.cols);
        } else if constexpr (std::is_same_v<Attrs, SoftmaxAttrs>) {
          return rows_cols(op.rows, op.cols);
        } else if constexpr (std::is_same_v<Attrs, PoolAttrs>) {
          return std::string(pool_kind_name(op.kind)) + " window=" + number(op.r) + "x" +
                 number(op.s) + " stride=" + number(op.stride) + " pad=" + number(op.pad);
        } else if constexpr (std::is_same_v<Attrs, EmbeddingAttrs>) {
          return rows_cols(op.rows, op.cols) + " vocab=" + number(op.vocab);
        } else if constexpr (std::is_same_v<Attrs, CopyAttrs>) {
          return "bytes=" + number(op.bytes) + (op.is_view ? " view" : "");
        } else {
          return onnx_attributes_text(op);
        }
      },
      attrs);
}

std::string op_full_attributes_text(const OpAttrs& attrs) {
  // The short forms leave out what a convolution's or a pool's operand shapes tell a reader;
  // the text IR spells them out so that the op reads back without its operands.
  const auto nchw = [](int64_t n, int64_t c, int64_t h, int64_t w) {
    return "n=" + number(n) + " c=" + number(c) + " h=" + number(h) + " w=" + number(w) + " ";
  };
  if (const auto* conv = std::get_if<Conv2dAttrs>(&attrs)) {
    return nchw(conv->n, conv->c, conv->h, conv->w) + "k=" + number(conv->k) +
           " window=" + number(conv->r) + "x" + number(conv->s) + " " + op_attributes_text(attrs);
  }
  if (const auto* pool = std::get_if<PoolAttrs>(&attrs)) {
    return nchw(pool->n, pool->c, pool->h, pool->w) + op_attributes_text(attrs);
  }
  return op_attributes_text(attrs);
}

}  // namespace polyarch::ir
