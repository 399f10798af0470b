#pragma once
// A position in a TilePlan's tile sequence, which the plan stores compressed: plan_repeats
// x blocks x block.repeat x runs x run.count. The tile runner's three threads each walk the
// sequence with their own cursor; fast-forward jumps a cursor over whole iterations of one of
// the three repeating levels (a plan repeat, a block iteration, or one tile of a run).
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/pipeline/tile_plan.h"

namespace polyarch::sim {

enum class RepeatLevel { kPlan = 0, kBlock = 1, kRun = 2 };
inline constexpr int kRepeatLevelCount = 3;

// One repeating level as seen from a position where one of its iterations begins.
struct RepeatSpan {
  int64_t first_index = 0;  // tile index where iteration 0 of this level began
  int64_t iteration = 0;    // iterations already done (the current one begins here)
  int64_t iterations = 0;   // all iterations of this level
  int64_t length = 0;       // tiles per iteration
  int64_t read_bytes = 0;   // DRAM traffic per iteration
  int64_t write_bytes = 0;
  int64_t cycles = 0;  // compute cycles per iteration
};

class TileCursor {
 public:
  // `plan` must outlive the cursor. Empty runs and blocks are ignored.
  explicit TileCursor(const TilePlan& plan);

  bool done() const { return index_ >= total_tiles_; }
  int64_t index() const { return index_; }
  int64_t total_tiles() const { return total_tiles_; }
  const TileShape& tile() const;

  void advance();
  // The level's span if an iteration of `level` (and so of every level inside it) begins at
  // the current tile; nullopt otherwise.
  std::optional<RepeatSpan> span(RepeatLevel level) const;
  // Jumps over `iterations` whole iterations of `level`; span(level) must be engaged.
  void skip(RepeatLevel level, int64_t iterations);

 private:
  struct Block {
    std::vector<TileRun> runs;  // non-empty ones only
    int64_t repeat = 0;
    int64_t length = 0;  // tiles per iteration
    int64_t read_bytes = 0;
    int64_t write_bytes = 0;
    int64_t cycles = 0;
  };

  void normalize();  // carries finished counters outward

  std::vector<Block> blocks_;
  int64_t plan_repeats_ = 0;
  int64_t plan_length_ = 0;
  int64_t plan_read_bytes_ = 0;
  int64_t plan_write_bytes_ = 0;
  int64_t plan_cycles_ = 0;
  int64_t total_tiles_ = 0;

  // Position: plan repeat, block, block iteration, run, tile within the run.
  int64_t plan_repeat_ = 0;
  std::size_t block_ = 0;
  int64_t block_iteration_ = 0;
  std::size_t run_ = 0;
  int64_t tile_ = 0;
  int64_t index_ = 0;
  int64_t block_first_index_ = 0;  // where iteration 0 of the current block began
  int64_t run_first_index_ = 0;    // where tile 0 of the current run began
};

}  // namespace polyarch::sim
