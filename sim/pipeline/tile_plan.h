#pragma once
// What the tile runner (tile_runner.h) runs: a sequence of tiles, each with its compute cycles
// and the DRAM traffic around it, stored compressed as the kinds plan it — runs of identical
// tiles, blocks of runs repeated back to back, and the whole block list repeated. A kind turns
// its own plan into this one (a systolic fold, a simd step and a dataflow phase iteration are
// each a tile); what else a kind's plan counts (SRAM accesses, MACs) stays with the kind.
#include <cstdint>
#include <utility>
#include <vector>

namespace polyarch::sim {

// One tile: operands fetched before it computes, results written after.
struct TileShape {
  int64_t cycles = 0;  // in the unit's clock
  int64_t dram_read_bytes = 0;
  int64_t dram_write_bytes = 0;
};

// `count` consecutive identical tiles. The kinds plan in the same compressed shape with tiles of
// their own (a systolic FoldShape, a simd KernelStep), which carry more than the runner needs.
template <class Tile>
struct RunOf {
  Tile tile;
  int64_t count = 0;

  bool operator==(const RunOf&) const = default;
};

// A sequence of runs executed `repeat` times back to back.
template <class Tile>
struct BlockOf {
  std::vector<RunOf<Tile>> runs;
  int64_t repeat = 1;
};

// Appends `count` tiles `tile` to `runs`, extending the last run when it holds the same tile.
template <class Tile>
void append_run(std::vector<RunOf<Tile>>& runs, const Tile& tile, int64_t count) {
  if (count <= 0) return;
  if (!runs.empty() && runs.back().tile == tile) {
    runs.back().count += count;
  } else {
    runs.push_back({tile, count});
  }
}

// Appends `runs` repeated `repeat` times to `blocks`, extending the last block when it holds the
// same runs.
template <class Tile>
void append_block(std::vector<BlockOf<Tile>>& blocks, std::vector<RunOf<Tile>> runs,
                  int64_t repeat = 1) {
  if (repeat <= 0) return;
  if (!blocks.empty() && blocks.back().runs == runs) {
    blocks.back().repeat += repeat;
  } else {
    blocks.push_back({std::move(runs), repeat});
  }
}

using TileRun = RunOf<TileShape>;
using TileBlock = BlockOf<TileShape>;

struct TilePlan {
  std::vector<TileBlock> blocks;  // in execution order
  int64_t plan_repeats = 1;       // the whole block list runs this many times
};

}  // namespace polyarch::sim
