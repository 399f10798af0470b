#include "compiler/passes/block_mask_pattern.h"

#include <optional>

namespace polyarch::passes {

namespace {

// Smaller blocks make layouts that spell nearly any mask, at a cost: a flash kernel's tiles are
// 16 keys and up, so a pattern finer than that is not worth recognising.
constexpr int64_t kBlockSizes[] = {256, 128, 64, 32, 16};

// The layout at `block`: a cell is visible where any of its entries is; then every entry must
// be what the layout (and the causal mask) says.
std::optional<ir::BlockSparseLayout> layout_at(const std::function<bool(int64_t, int64_t)>& visible,
                                               int64_t s, int64_t kv, int64_t block, bool causal) {
  const int64_t rows = s / block;
  const int64_t columns = kv / block;
  const int64_t offset = kv - s;
  std::vector<uint8_t> cells(static_cast<std::size_t>(rows * columns), 0);
  for (int64_t query = 0; query < s; ++query) {
    for (int64_t key = 0; key < kv; ++key) {
      if (visible(query, key)) {
        cells[static_cast<std::size_t>((query / block) * columns + key / block)] = 1;
      }
    }
  }
  for (int64_t query = 0; query < s; ++query) {
    const int64_t position = offset + query;
    for (int64_t key = 0; key < kv; ++key) {
      const bool cell = cells[static_cast<std::size_t>((query / block) * columns + key / block)];
      if (visible(query, key) != (cell && (!causal || key <= position))) return std::nullopt;
    }
  }
  return ir::explicit_layout(block, s, kv, std::move(cells));
}

}  // namespace

std::optional<BlockMaskPattern> block_mask_pattern(
    const std::function<bool(int64_t, int64_t)>& visible, int64_t s, int64_t kv) {
  if (s > kv) return std::nullopt;
  for (bool causal : {false, true}) {
    for (int64_t block : kBlockSizes) {
      if (s % block != 0 || kv % block != 0) continue;
      if (std::optional<ir::BlockSparseLayout> layout = layout_at(visible, s, kv, block, causal)) {
        return BlockMaskPattern{std::make_shared<const ir::BlockSparseLayout>(std::move(*layout)),
                                causal};
      }
    }
  }
  return std::nullopt;
}

}  // namespace polyarch::passes
