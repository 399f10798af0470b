// mac_count, flop_count and bytes_touched: the work and traffic of each canonical op kind.
#include <type_traits>

#include "base/checked_math.h"
#include "compiler/ir/attention_visibility.h"
#include "compiler/ir/op.h"
#include "compiler/ir/op_bytes.h"
#include "compiler/ir/stored_operands.h"
#include "compiler/ir/weight_sparsity.h"

namespace polyarch::ir {

namespace {

// Product of the factors, each step checked against 64-bit overflow.
int64_t product(std::initializer_list<int64_t> factors, const char* what) {
  int64_t result = 1;
  for (int64_t factor : factors) result = checked_mul(result, factor, what);
  return result;
}

int64_t sum(std::initializer_list<int64_t> terms, const char* what) {
  int64_t result = 0;
  for (int64_t term : terms) result = checked_add(result, term, what);
  return result;
}

int64_t gemm_macs(const GemmAttrs& gemm) {
  return product({gemm.batch, gemm.m, gemm.n, gemm.k}, "gemm MACs");
}

int64_t conv_outputs(const Conv2dAttrs& conv) {
  return product({conv.n, conv.k, conv.out_h(), conv.out_w()}, "conv2d outputs");
}

int64_t conv_macs(const Conv2dAttrs& conv) {
  // Each output element of each filter accumulates over its group's channels and the window.
  return product({conv_outputs(conv), conv.c / conv.groups, conv.r, conv.s}, "conv2d MACs");
}

// QK^T and PV: each of the b*h*s query rows meets the keys it sees over d, then as many values
// over d (attention_visibility.h: masked scores are skipped, as flash kernels skip the blocks
// a causal mask or a window hides).
int64_t attention_scores(const AttentionAttrs& attention) {
  return product({attention.b, attention.h, visible_scores_per_head(attention)},
                 "attention scores");
}

int64_t attention_macs(const AttentionAttrs& attention) {
  return product({2, attention_scores(attention), attention.d}, "attention MACs");
}

// Per-element operation counts; see flop_count's comment in op.h.
constexpr int64_t kSoftmaxFlopsPerElement = 5;
constexpr int64_t kLayerNormFlopsPerElement = 7;
constexpr int64_t kRmsNormFlopsPerElement = 4;

struct ElementCounts {
  int64_t read = 0;
  int64_t written = 0;
};

ElementCounts gemm_elements(const GemmAttrs& gemm) {
  const int64_t b_matrix = product({gemm.k, gemm.n}, "gemm B elements");
  const int64_t b_elements = gemm.b_shared ? b_matrix : checked_mul(b_matrix, gemm.batch, "gemm B");
  return {sum({product({gemm.batch, gemm.m, gemm.k}, "gemm A elements"), b_elements,
               gemm.bias ? gemm.n : 0},
              "gemm elements read"),
          product({gemm.batch, gemm.m, gemm.n}, "gemm C elements")};
}

ElementCounts conv_elements(const Conv2dAttrs& conv) {
  return {sum({product({conv.n, conv.c, conv.h, conv.w}, "conv2d input elements"),
               product({conv.k, conv.c / conv.groups, conv.r, conv.s}, "conv2d filter elements"),
               conv.bias ? conv.k : 0},
              "conv2d elements read"),
          conv_outputs(conv)};
}

// K and V elements the op reads: the keys some query sees, of every KV head.
int64_t kv_elements_read(const AttentionAttrs& attention) {
  return product({2, attention.b, attention.kv_heads, keys_seen(attention), attention.d}, "K, V");
}

ElementCounts attention_elements(const AttentionAttrs& attention) {
  const int64_t queries = product({attention.b, attention.h, attention.s, attention.d}, "Q");
  return {sum({queries, kv_elements_read(attention)}, "attention elements read"), queries};
}

ElementCounts pool_elements(const PoolAttrs& pool) {
  return {product({pool.n, pool.c, pool.h, pool.w}, "pool input elements"),
          product({pool.n, pool.c, pool.out_h(), pool.out_w()}, "pool output elements")};
}

ElementCounts element_counts(const OpAttrs& attrs) {
  return std::visit(
      [](const auto& op) -> ElementCounts {
        using Attrs = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Attrs, GemmAttrs>) {
          return gemm_elements(op);
        } else if constexpr (std::is_same_v<Attrs, Conv2dAttrs>) {
          return conv_elements(op);
        } else if constexpr (std::is_same_v<Attrs, AttentionAttrs>) {
          return attention_elements(op);
        } else if constexpr (std::is_same_v<Attrs, ElementwiseAttrs>) {
          return {checked_mul(op.elements, op.inputs, "elementwise inputs"), op.elements};
        } else if constexpr (std::is_same_v<Attrs, ReduceAttrs>) {
          return {checked_mul(op.rows, op.cols, "reduce inputs"), op.rows};
        } else if constexpr (std::is_same_v<Attrs, NormAttrs>) {
          // The row data plus gamma (and LayerNorm's beta) per column.
          const int64_t parameters = op.kind == NormKind::kLayerNorm ? 2 * op.cols : op.cols;
          const int64_t elements = checked_mul(op.rows, op.cols, "norm elements");
          return {checked_add(elements, parameters, "norm elements read"), elements};
        } else if constexpr (std::is_same_v<Attrs, SoftmaxAttrs>) {
          const int64_t elements = checked_mul(op.rows, op.cols, "softmax elements");
          return {elements, elements};
        } else if constexpr (std::is_same_v<Attrs, PoolAttrs>) {
          return pool_elements(op);
        } else if constexpr (std::is_same_v<Attrs, EmbeddingAttrs>) {
          const int64_t gathered = checked_mul(op.rows, op.cols, "embedding elements");
          return {gathered, gathered};
        } else {
          return {};  // Copy counts bytes itself; frontend ops are not costed
        }
      },
      attrs);
}

}  // namespace

int64_t mac_count(const Op& op) {
  if (const auto* gemm = std::get_if<GemmAttrs>(&op.attrs)) return gemm_macs(*gemm);
  if (const auto* conv = std::get_if<Conv2dAttrs>(&op.attrs)) return conv_macs(*conv);
  if (const auto* attention = std::get_if<AttentionAttrs>(&op.attrs)) {
    return attention_macs(*attention);
  }
  return 0;
}

int64_t flop_count(const Op& op) {
  const int64_t matrix_flops = checked_mul(2, mac_count(op), "FLOPs");
  return std::visit(
      [&](const auto& attrs) -> int64_t {
        using Attrs = std::decay_t<decltype(attrs)>;
        if constexpr (std::is_same_v<Attrs, GemmAttrs>) {
          const int64_t outputs = gemm_elements(attrs).written;
          const int64_t epilogue = (attrs.bias ? outputs : 0) + (attrs.activation ? outputs : 0);
          return checked_add(matrix_flops, epilogue, "gemm FLOPs");
        } else if constexpr (std::is_same_v<Attrs, Conv2dAttrs>) {
          const int64_t outputs = conv_outputs(attrs);
          const int64_t epilogue = (attrs.bias ? outputs : 0) + (attrs.activation ? outputs : 0);
          return checked_add(matrix_flops, epilogue, "conv2d FLOPs");
        } else if constexpr (std::is_same_v<Attrs, AttentionAttrs>) {
          // Scaling by 1/sqrt(d), then the softmax, on every score.
          const int64_t per_score = 1 + kSoftmaxFlopsPerElement;
          return checked_add(matrix_flops,
                             checked_mul(per_score, attention_scores(attrs), "attention FLOPs"),
                             "attention FLOPs");
        } else if constexpr (std::is_same_v<Attrs, ElementwiseAttrs>) {
          return attrs.elements;
        } else if constexpr (std::is_same_v<Attrs, ReduceAttrs>) {
          return checked_mul(attrs.rows, attrs.cols, "reduce FLOPs");
        } else if constexpr (std::is_same_v<Attrs, NormAttrs>) {
          const int64_t per_element = attrs.kind == NormKind::kLayerNorm ? kLayerNormFlopsPerElement
                                                                         : kRmsNormFlopsPerElement;
          return product({per_element, attrs.rows, attrs.cols}, "norm FLOPs");
        } else if constexpr (std::is_same_v<Attrs, SoftmaxAttrs>) {
          return product({kSoftmaxFlopsPerElement, attrs.rows, attrs.cols}, "softmax FLOPs");
        } else if constexpr (std::is_same_v<Attrs, PoolAttrs>) {
          // One comparison or addition per window element of every output.
          return product({attrs.n, attrs.c, attrs.out_h(), attrs.out_w(), attrs.r, attrs.s},
                         "pool FLOPs");
        } else {
          return 0;  // lookups and copies move data without arithmetic
        }
      },
      op.attrs);
}

int64_t bytes_touched(const Op& op, DType native_dtype) {
  if (const auto* copy = std::get_if<CopyAttrs>(&op.attrs)) {
    return copy->is_view ? 0 : checked_mul(2, copy->bytes, "copy bytes");  // read + write
  }
  const DType dtype = op.dtype.value_or(native_dtype);
  const ElementCounts elements = element_counts(op.attrs);
  int64_t bytes =
      storage_bytes(checked_add(elements.read, elements.written, "elements touched"), dtype);
  if (op.weight_sparsity || op.weight_format) {
    // Pruned or quantised weights are read as stored: their bytes replace the dense ones.
    bytes = checked_add(bytes - storage_bytes(weight_elements(op), dtype),
                        weight_storage_bytes(op, dtype), "bytes touched");
  }
  if (const auto* attention = std::get_if<AttentionAttrs>(&op.attrs); attention && attention->kv_dtype) {
    // The whole cache exactly (its scales are per token); a part of it at the same rate.
    const int64_t kv_elements = kv_elements_read(*attention);
    const int64_t stored = kv_elements == kv_cache_elements(*attention)
                               ? kv_cache_bytes(*attention, dtype)
                               : kv_stored_bytes(*attention, dtype, kv_elements);
    bytes = checked_add(bytes - storage_bytes(kv_elements, dtype), stored, "bytes touched");
  }
  if (const auto* embedding = std::get_if<EmbeddingAttrs>(&op.attrs)) {
    // ONNX token ids are int64 whatever the table's type.
    bytes = checked_add(bytes, checked_mul(embedding->rows, 8, "embedding index bytes"),
                        "bytes touched");
  }
  return bytes;
}

ElementsReadWritten elements_read_written(const Op& op) {
  const ElementCounts elements = element_counts(op.attrs);
  return {elements.read, elements.written};
}

BytesReadWritten bytes_read_written(const Op& op, DType native_dtype) {
  const int64_t touched = bytes_touched(op, native_dtype);
  int64_t written = 0;
  if (const auto* copy = std::get_if<CopyAttrs>(&op.attrs)) {
    written = copy->is_view ? 0 : copy->bytes;
  } else {
    written = storage_bytes(element_counts(op.attrs).written, op.dtype.value_or(native_dtype));
  }
  return {touched - written, written};
}

}  // namespace polyarch::ir
