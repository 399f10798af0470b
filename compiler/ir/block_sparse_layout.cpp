#include "compiler/ir/block_sparse_layout.h"

#include <algorithm>
#include <random>

#include "base/checked_math.h"
#include "base/random_draw.h"

namespace polyarch::ir {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// One row of the BigBird layout over all n position blocks (see the header for the rule).
void bigbird_row(const BigBirdSpec& spec, int64_t row, int64_t n, bool causal,
                 std::mt19937_64& engine, std::vector<uint8_t>& cells) {
  if (row < spec.global) {
    std::fill(cells.begin(), cells.end(), 1);
    return;
  }
  for (int64_t column = 0; column < std::min(spec.global, n); ++column) cells[column] = 1;
  const int64_t before = spec.local > 0 ? (spec.local - 1) / 2 : 0;
  const int64_t after = spec.local > 0 ? spec.local - 1 - before : -1;
  for (int64_t column = std::max<int64_t>(0, row - before); column <= std::min(n - 1, row + after);
       ++column) {
    cells[column] = 1;
  }
  std::vector<int64_t> candidates;
  const int64_t last_candidate = causal ? row : n - 1;
  for (int64_t column = 0; column <= last_candidate; ++column) {
    if (cells[column] == 0) candidates.push_back(column);
  }
  for (int64_t draw = 0; draw < spec.random && !candidates.empty(); ++draw) {
    const auto index =
        static_cast<std::ptrdiff_t>(random_below(engine, static_cast<uint64_t>(candidates.size())));
    cells[candidates[index]] = 1;
    candidates.erase(candidates.begin() + index);
  }
}

}  // namespace

int64_t BlockSparseLayout::visible_cells() const {
  return std::count(cells.begin(), cells.end(), uint8_t{1});
}

int64_t position_blocks(int64_t positions, int64_t block) { return ceil_div(positions, block); }

std::string layout_size_error(int64_t block, int64_t kv_len) {
  const int64_t n = position_blocks(kv_len, block);
  if (n <= kMaxLayoutCells / n) return "";
  return "a block layout of " + std::to_string(n) + " x " + std::to_string(n) + " blocks of " +
         std::to_string(block) + " tokens is more than the " + std::to_string(kMaxLayoutCells) +
         " cells polyarch holds; give a larger block";
}

int64_t layout_query_blocks(int64_t block, int64_t s, int64_t kv_len) {
  return position_blocks(kv_len, block) - (kv_len - s) / block;
}

BlockSparseLayout bigbird_layout(const BigBirdSpec& spec, int64_t block, int64_t s, int64_t kv_len,
                                 bool causal) {
  const int64_t n = position_blocks(kv_len, block);
  BlockSparseLayout layout;
  layout.block = block;
  layout.bigbird = spec;
  layout.first_query_block = (kv_len - s) / block;
  layout.query_blocks = n - layout.first_query_block;
  layout.key_blocks = n;
  layout.cells.reserve(static_cast<std::size_t>(layout.query_blocks * n));
  std::mt19937_64 engine(spec.seed);
  std::vector<uint8_t> row_cells(static_cast<std::size_t>(n));
  for (int64_t row = 0; row < n; ++row) {
    std::fill(row_cells.begin(), row_cells.end(), 0);
    bigbird_row(spec, row, n, causal, engine, row_cells);
    if (row >= layout.first_query_block) {
      layout.cells.insert(layout.cells.end(), row_cells.begin(), row_cells.end());
    }
  }
  return layout;
}

BlockSparseLayout explicit_layout(int64_t block, int64_t s, int64_t kv_len,
                                  std::vector<uint8_t> cells) {
  BlockSparseLayout layout;
  layout.block = block;
  layout.first_query_block = (kv_len - s) / block;
  layout.query_blocks = layout_query_blocks(block, s, kv_len);
  layout.key_blocks = position_blocks(kv_len, block);
  for (uint8_t& cell : cells) cell = cell != 0 ? 1 : 0;
  layout.cells = std::move(cells);
  return layout;
}

std::string block_sparse_text(const std::shared_ptr<const BlockSparseLayout>& layout) {
  if (!layout) return "";
  std::string text = " block=" + std::to_string(layout->block);
  if (const auto& spec = layout->bigbird) {
    return text + " local=" + std::to_string(spec->local) +
           " global=" + std::to_string(spec->global) + " random=" + std::to_string(spec->random) +
           " seed=" + std::to_string(spec->seed);
  }
  text += " block_mask=";
  for (int64_t row = 0; row < layout->query_blocks; ++row) {
    if (row > 0) text += '.';
    for (int64_t first = 0; first < layout->key_blocks; first += 4) {
      int digit = 0;
      for (int64_t bit = 0; bit < 4; ++bit) {
        const int64_t column = first + bit;
        if (column < layout->key_blocks && layout->visible(row, column)) digit |= 8 >> bit;
      }
      text += kHexDigits[digit];
    }
  }
  return text;
}

std::optional<std::vector<uint8_t>> cells_from_hex(const std::string& text, int64_t rows,
                                                   int64_t columns) {
  const int64_t digits = ceil_div(columns, 4);
  if (static_cast<int64_t>(text.size()) != rows * digits + (rows - 1)) return std::nullopt;
  std::vector<uint8_t> cells(static_cast<std::size_t>(rows * columns));
  for (int64_t row = 0; row < rows; ++row) {
    const std::size_t start = static_cast<std::size_t>(row * (digits + 1));
    if (row > 0 && text[start - 1] != '.') return std::nullopt;
    for (int64_t digit = 0; digit < digits; ++digit) {
      const char c = text[start + static_cast<std::size_t>(digit)];
      const char* found = std::find(kHexDigits, kHexDigits + 16, c);
      if (found == kHexDigits + 16) return std::nullopt;
      const auto value = static_cast<int>(found - kHexDigits);
      for (int64_t bit = 0; bit < 4; ++bit) {
        const int64_t column = digit * 4 + bit;
        const bool set = (value & (8 >> bit)) != 0;
        if (column >= columns) {
          if (set) return std::nullopt;  // padding bits past the last column are zero
          continue;
        }
        cells[static_cast<std::size_t>(row * columns + column)] = set ? 1 : 0;
      }
    }
  }
  return cells;
}

}  // namespace polyarch::ir
