#include "archs/systolic/fold_tiles.h"

namespace polyarch::archs::systolic {

sim::TilePlan fold_tiles(const SystolicPlan& plan) {
  sim::TilePlan tiles;
  tiles.plan_repeats = plan.gemm_repeats;
  tiles.blocks.reserve(plan.blocks.size());
  for (const FoldBlock& block : plan.blocks) {
    sim::TileBlock tile_block;
    tile_block.repeat = block.repeat;
    for (const FoldRun& run : block.runs) {
      const FoldShape& fold = run.tile;
      tile_block.runs.push_back(
          {{fold.cycles, fold.dram_read_bytes, fold.dram_write_bytes}, run.count});
    }
    tiles.blocks.push_back(std::move(tile_block));
  }
  return tiles;
}

}  // namespace polyarch::archs::systolic
