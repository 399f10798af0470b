#pragma once
// Which columns the arrays of each crossbar tile convert in one wave of MVMs, the input the ADC
// pools (adc_pool.h) see. A layer's weights occupy arrays in layout order (weight set, row
// block, column block: column block = layout index mod col_blocks); a replica takes the next
// arrays_needed arrays, and tile t holds physical arrays [t x arrays_per_tile, ...). Every
// column block uses all `cols` columns except the last of each row, which uses what is left.
#include <cstdint>
#include <vector>

#include "archs/crossbar/params.h"

namespace polyarch::archs::crossbar {

// Arrays of one tile that use the same number of columns.
struct ArrayGroup {
  int64_t arrays = 0;
  int64_t used_columns = 0;

  bool operator==(const ArrayGroup&) const = default;
  auto operator<=>(const ArrayGroup&) const = default;
};

// One tile's active arrays in one wave; empty when the tile idles.
using TileLoad = std::vector<ArrayGroup>;

// How the weights' arrays use columns: `col_blocks` per row of blocks, the last using
// `last_block_columns`.
struct ColumnLayout {
  int64_t col_blocks = 1;
  int64_t last_block_columns = 0;
};

// Physical arrays [0, active_arrays) hold layout arrays first_layout_array + slot; tile `tile`'s
// load in that wave.
TileLoad tile_load(const CrossbarParams& params, const ColumnLayout& layout, int64_t tile,
                   int64_t first_layout_array, int64_t active_arrays);

// Tiles that see the same load in every wave shape of a sequence, and how many there are.
struct TileTrack {
  std::vector<TileLoad> loads;  // per wave shape
  int64_t tiles = 0;
};

// The distinct tracks of the tiles used by any of `active_arrays` (one entry per wave shape).
std::vector<TileTrack> tile_tracks(const CrossbarParams& params, const ColumnLayout& layout,
                                   int64_t first_layout_array,
                                   const std::vector<int64_t>& active_arrays);

}  // namespace polyarch::archs::crossbar
