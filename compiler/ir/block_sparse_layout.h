#pragma once
// Block-sparse attention layouts: which key blocks each query block sees. Positions (queries and
// keys alike) are cut into blocks of `block` tokens from position 0; position block R holds
// positions [R * block, (R + 1) * block), the last one cut at kv_len. The queries are the last s
// of the kv_len positions (attention_visibility.h), so the layout's rows are the position blocks
// that hold a query, floor((kv_len - s) / block) .. ceil(kv_len / block) - 1, and its columns the
// ceil(kv_len / block) key blocks. Every head and every sequence of the batch has the same layout.
//
// BigBird (Zaheer et al. 2020, "Big Bird: Transformers for Longer Sequences", the ITC variant),
// drawn over all ceil(kv_len / block) position blocks so a decode step reads the rows a prefill
// of the same length has:
//   global  the first `global` key blocks are seen by every query block, and the first `global`
//           query blocks see every key block;
//   local   a window of `local` key blocks centred on the query block: floor((local - 1) / 2)
//           before it, the rest after it (3: itself and one each side), cut at the ends;
//   random  every other query block sees `random` more key blocks, drawn without replacement
//           among the blocks not already visible (under a causal mask only blocks up to the
//           query's own: later ones would be hidden anyway), fewer when fewer remain.
// The draws: one std::mt19937_64 seeded with `seed`; rows in ascending order, and within a row
// `random` times: the candidates listed in ascending order, index = random_below(engine,
// candidate count) (base/random_draw.h: a 64-bit engine output, rejected while at or above
// 2^64 - 1 - (2^64 - 1) mod count, then taken mod count), that candidate made visible and removed
// from the list. Global rows and rows without candidates draw nothing. The engine's outputs are
// fixed by the C++ standard, so the layout is the same on every platform.
//
// An explicit layout is a mask given cell by cell (a layer list's .npy file, a constant mask an
// ONNX model applies).
//
// With a causal mask a query additionally sees no key after its own position; the block layout
// says which blocks, the causal mask cuts the diagonal block at element level.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace polyarch::ir {

struct BigBirdSpec {
  int64_t local = 0;
  int64_t global = 0;
  int64_t random = 0;
  uint64_t seed = 0;

  bool operator==(const BigBirdSpec&) const = default;
};

struct BlockSparseLayout {
  int64_t block = 0;                   // tokens per block
  std::optional<BigBirdSpec> bigbird;  // how the layout was drawn; nullopt: given cell by cell
  int64_t first_query_block = 0;       // the position block of row 0
  int64_t query_blocks = 0;            // rows
  int64_t key_blocks = 0;              // columns
  std::vector<uint8_t> cells;          // row-major; 1: the row's queries see the column's keys

  bool visible(int64_t row, int64_t key_block) const {
    return cells[static_cast<std::size_t>(row * key_blocks + key_block)] != 0;
  }
  int64_t visible_cells() const;

  bool operator==(const BlockSparseLayout&) const = default;
};

// Position blocks of `block` tokens holding positions [0, positions).
int64_t position_blocks(int64_t positions, int64_t block);

// The most cells a layout may have (a BigBird layout is drawn over ceil(kv_len / block)^2):
// 2^26, a 8192 x 8192-block layout, 512 k tokens in blocks of 64. Finer layouts are refused
// (layout_size_error) rather than held in memory cell by cell.
inline constexpr int64_t kMaxLayoutCells = int64_t{1} << 26;
// Why a layout of `block` over kv_len positions is too large to hold; "" when it is not.
std::string layout_size_error(int64_t block, int64_t kv_len);
// Rows of a layout for s queries that are the last of kv_len positions; block > 0, s <= kv_len.
int64_t layout_query_blocks(int64_t block, int64_t s, int64_t kv_len);

// The BigBird layout for s queries among kv_len positions (s <= kv_len, every count >= 0).
BlockSparseLayout bigbird_layout(const BigBirdSpec& spec, int64_t block, int64_t s, int64_t kv_len,
                                 bool causal);

// A layout given cell by cell: `cells` holds layout_query_blocks x position_blocks(kv_len)
// entries, row-major (the caller checks the count and names the source when it is wrong).
BlockSparseLayout explicit_layout(int64_t block, int64_t s, int64_t kv_len,
                                  std::vector<uint8_t> cells);

// The layout as the text IR prints it: " block=64 local=3 global=2 random=3 seed=1" for BigBird,
// " block=64 block_mask=HEX.HEX..." for an explicit one (each row's columns as hex digits, four
// columns a digit, the first column the high bit, rows joined by '.'); "" without a layout.
std::string block_sparse_text(const std::shared_ptr<const BlockSparseLayout>& layout);
// The cells a block_mask text spells for `rows` x `columns`; nullopt when it does not fit.
std::optional<std::vector<uint8_t>> cells_from_hex(const std::string& text, int64_t rows,
                                                   int64_t columns);

}  // namespace polyarch::ir
