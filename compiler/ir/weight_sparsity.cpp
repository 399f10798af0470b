#include "compiler/ir/weight_sparsity.h"

#include <algorithm>
#include <cmath>

#include "base/checked_math.h"

namespace polyarch::ir {

int64_t weight_elements(const Op& op) {
  if (const auto* gemm = std::get_if<GemmAttrs>(&op.attrs)) {
    return gemm->b_shared ? checked_mul(gemm->k, gemm->n, "weight elements") : 0;
  }
  if (const auto* conv = std::get_if<Conv2dAttrs>(&op.attrs)) {
    return checked_mul(checked_mul(conv->k, conv->c / conv->groups, "weight elements"),
                       checked_mul(conv->r, conv->s, "weight elements"), "weight elements");
  }
  return 0;
}

int64_t stored_weight_bytes(int64_t elements, DType dtype, const WeightSparsity& sparsity) {
  const int64_t dense = storage_bytes(elements, dtype);
  int64_t compressed = 0;
  if (sparsity.structured()) {
    const int64_t kept =
        checked_mul((elements + sparsity.m - 1) / sparsity.m, sparsity.n, "kept weights");
    const auto index_bits = static_cast<int64_t>(std::ceil(std::log2(sparsity.m)));
    compressed = checked_add(storage_bytes(kept, dtype),
                             (checked_mul(kept, index_bits, "index bits") + 7) / 8,
                             "weight bytes");
  } else {
    const auto nonzeros = static_cast<int64_t>(
        std::ceil(std::clamp(sparsity.density, 0.0, 1.0) * static_cast<double>(elements)));
    compressed = checked_add(storage_bytes(nonzeros, dtype),
                             (elements + 7) / 8, "weight bytes");
  }
  return std::min(dense, compressed);
}

}  // namespace polyarch::ir
