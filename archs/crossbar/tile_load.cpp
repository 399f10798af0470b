#include "archs/crossbar/tile_load.h"

#include <algorithm>
#include <map>

namespace polyarch::archs::crossbar {

TileLoad tile_load(const CrossbarParams& params, const ColumnLayout& layout, int64_t tile,
                   int64_t first_layout_array, int64_t active_arrays) {
  const int64_t begin = tile * params.arrays_per_tile;
  const int64_t end = std::min(begin + params.arrays_per_tile, active_arrays);
  if (end <= begin) return {};
  // Layout arrays whose index + 1 is a multiple of col_blocks are a row's last column block.
  const int64_t blocks = std::max<int64_t>(layout.col_blocks, 1);
  const int64_t last_blocks =
      (first_layout_array + end) / blocks - (first_layout_array + begin) / blocks;
  const int64_t full_blocks = end - begin - last_blocks;
  TileLoad load;
  if (layout.last_block_columns == params.cols) {
    load.push_back({end - begin, params.cols});
    return load;
  }
  if (full_blocks > 0) load.push_back({full_blocks, params.cols});
  if (last_blocks > 0) load.push_back({last_blocks, layout.last_block_columns});
  return load;
}

std::vector<TileTrack> tile_tracks(const CrossbarParams& params, const ColumnLayout& layout,
                                   int64_t first_layout_array,
                                   const std::vector<int64_t>& active_arrays) {
  int64_t most = 0;
  for (int64_t active : active_arrays) most = std::max(most, active);
  const int64_t tiles = (most + params.arrays_per_tile - 1) / params.arrays_per_tile;
  std::map<std::vector<TileLoad>, int64_t> counts;
  for (int64_t tile = 0; tile < tiles; ++tile) {
    std::vector<TileLoad> loads;
    for (int64_t active : active_arrays) {
      loads.push_back(tile_load(params, layout, tile, first_layout_array, active));
    }
    ++counts[loads];
  }
  std::vector<TileTrack> tracks;
  for (auto& [loads, count] : counts) tracks.push_back({loads, count});
  return tracks;
}

}  // namespace polyarch::archs::crossbar
