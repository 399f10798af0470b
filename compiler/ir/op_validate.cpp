// validate_op: attribute consistency of every op kind, with errors naming the op.
#include <type_traits>

#include "base/checked_math.h"
#include "compiler/ir/block_sparse_layout.h"
#include "compiler/ir/op.h"
#include "compiler/ir/weight_sparsity.h"

namespace polyarch::ir {

namespace {

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
  require_positive(op, "dilation_h", conv.dilation_h);
  require_positive(op, "dilation_w", conv.dilation_w);
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
  // The span's arithmetic is checked here; past validation span_h() and span_w() cannot overflow.
  const int64_t span_h =
      checked_add(checked_mul(conv.dilation_h, conv.r - 1, "window span"), 1, "window span");
  const int64_t span_w =
      checked_add(checked_mul(conv.dilation_w, conv.s - 1, "window span"), 1, "window span");
  if (span_h > padded_h || span_w > padded_w) {
    const bool dilated = conv.dilation_h != 1 || conv.dilation_w != 1;
    op_error(op, "filter " + std::to_string(conv.r) + "x" + std::to_string(conv.s) +
                     (dilated ? " spanning " + std::to_string(span_h) + "x" + std::to_string(span_w)
                              : "") +
                     " is larger than the padded input " + std::to_string(padded_h) + "x" +
                     std::to_string(padded_w));
  }
}

// A block-sparse layout has the rows and columns of the op's positions and no window with it.
void validate_block_sparse(const Op& op, const AttentionAttrs& attention,
                           const BlockSparseLayout& layout) {
  if (attention.window > 0) {
    op_error(op,
             "a block-sparse pattern and a sliding window together are not defined "
             "(give one of them)");
  }
  if (attention.s > attention.kv_len) {
    op_error(op,
             "a block-sparse pattern needs s <= kv_len (the queries are the last s "
             "positions); s=" +
                 std::to_string(attention.s) + ", kv_len=" + std::to_string(attention.kv_len));
  }
  require_positive(op, "block", layout.block);
  const int64_t rows = layout_query_blocks(layout.block, attention.s, attention.kv_len);
  const int64_t columns = position_blocks(attention.kv_len, layout.block);
  if (layout.query_blocks != rows || layout.key_blocks != columns ||
      layout.first_query_block != (attention.kv_len - attention.s) / layout.block ||
      static_cast<int64_t>(layout.cells.size()) != rows * columns) {
    op_error(op, "its block layout is " + std::to_string(layout.query_blocks) + " x " +
                     std::to_string(layout.key_blocks) +
                     " blocks, but s=" + std::to_string(attention.s) +
                     " and kv_len=" + std::to_string(attention.kv_len) + " in blocks of " +
                     std::to_string(layout.block) + " need " + std::to_string(rows) + " x " +
                     std::to_string(columns));
  }
}

void validate_attention(const Op& op, const AttentionAttrs& attention) {
  require_positive(op, "b", attention.b);
  require_positive(op, "h", attention.h);
  require_positive(op, "kv_heads", attention.kv_heads);
  require_positive(op, "s", attention.s);
  require_positive(op, "kv_len", attention.kv_len);
  require_positive(op, "d", attention.d);
  // Grouped-query attention shares each key/value head among h / kv_heads query heads.
  if (attention.h % attention.kv_heads != 0) {
    op_error(op, "heads h=" + std::to_string(attention.h) +
                     " are not divisible by kv_heads=" + std::to_string(attention.kv_heads));
  }
  // A window slides over positions: the queries must be the last s of the kv_len keys.
  if (attention.window < 0) op_error(op, "window must be positive (0: none)");
  if (attention.window > 0 && attention.s > attention.kv_len) {
    op_error(op, "a window needs s <= kv_len (the queries are the last s positions); s=" +
                     std::to_string(attention.s) + ", kv_len=" + std::to_string(attention.kv_len));
  }
  if (const auto& layout = attention.block_sparse) validate_block_sparse(op, attention, *layout);
}

void validate_pool(const Op& op, const PoolAttrs& pool) {
  require_positive(op, "n", pool.n);
  require_positive(op, "c", pool.c);
  require_positive(op, "h", pool.h);
  require_positive(op, "w", pool.w);
  require_positive(op, "r", pool.r);
  require_positive(op, "s", pool.s);
  require_positive(op, "stride", pool.stride);
  if (pool.pad < 0) op_error(op, "padding must not be negative, got " + std::to_string(pool.pad));
  const int64_t padded_h = checked_add(pool.h, checked_mul(2, pool.pad, "padded"), "padded");
  const int64_t padded_w = checked_add(pool.w, checked_mul(2, pool.pad, "padded"), "padded");
  if (pool.r > padded_h || pool.s > padded_w) {
    op_error(op, "window " + std::to_string(pool.r) + "x" + std::to_string(pool.s) +
                     " is larger than the padded input " + std::to_string(padded_h) + "x" +
                     std::to_string(padded_w));
  }
}

void validate_rows_cols(const Op& op, int64_t rows, int64_t cols) {
  require_positive(op, "rows", rows);
  require_positive(op, "cols", cols);
}

void validate_attrs(const Op& op) {
  std::visit(
      [&](const auto& attrs) {
        using Attrs = std::decay_t<decltype(attrs)>;
        if constexpr (std::is_same_v<Attrs, GemmAttrs>) {
          validate_gemm(op, attrs);
        } else if constexpr (std::is_same_v<Attrs, Conv2dAttrs>) {
          validate_conv(op, attrs);
        } else if constexpr (std::is_same_v<Attrs, AttentionAttrs>) {
          validate_attention(op, attrs);
        } else if constexpr (std::is_same_v<Attrs, ElementwiseAttrs>) {
          if (attrs.fn.empty()) op_error(op, "elementwise op without a function (fn)");
          require_positive(op, "elements", attrs.elements);
          require_positive(op, "inputs", attrs.inputs);
          if (attrs.approximate_tanh && attrs.fn != "gelu") {
            op_error(op, "approximate=tanh is a form of gelu, not of " + attrs.fn);
          }
        } else if constexpr (std::is_same_v<Attrs, ReduceAttrs>) {
          if (attrs.fn.empty()) op_error(op, "reduce op without a function (fn)");
          validate_rows_cols(op, attrs.rows, attrs.cols);
        } else if constexpr (std::is_same_v<Attrs, NormAttrs> ||
                             std::is_same_v<Attrs, SoftmaxAttrs>) {
          validate_rows_cols(op, attrs.rows, attrs.cols);
        } else if constexpr (std::is_same_v<Attrs, PoolAttrs>) {
          validate_pool(op, attrs);
        } else if constexpr (std::is_same_v<Attrs, EmbeddingAttrs>) {
          validate_rows_cols(op, attrs.rows, attrs.cols);
          require_positive(op, "vocab", attrs.vocab);
        } else if constexpr (std::is_same_v<Attrs, CopyAttrs>) {
          if (attrs.bytes < 0) op_error(op, "bytes must not be negative");
        } else {
          if (attrs.op_type.empty()) op_error(op, "ONNX node has an empty op_type");
        }
      },
      op.attrs);
}

// A weight format needs weights to store and a group size that is not negative.
void validate_storage(const Op& op) {
  if (op.weight_format) {
    if (weight_elements(op) == 0) {
      op_error(op, "weight_dtype needs an op with weights (a gemm with shared weights, a conv2d)");
    }
    if (op.weight_format->group < 0) {
      op_error(op, "weight_group must be positive (0: one scale per output channel)");
    }
  }
}

}  // namespace

void validate_op(const Op& op) {
  if (op.name.empty()) throw_bad_input(op.where, "op has an empty name");
  validate_storage(op);
  // Sizes whose counts overflow 64 bits are rejected here rather than deep in a cost model,
  // with the op's name and location added to the overflow message (checked_math knows neither).
  try {
    validate_attrs(op);
    mac_count(op);
    flop_count(op);
    bytes_touched(op);
  } catch (const Error& overflow) {
    if (!overflow.where().to_string().empty()) throw;
    op_error(op, overflow.message());
  }
}

}  // namespace polyarch::ir
