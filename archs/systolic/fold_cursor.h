#pragma once
// A position in a SystolicPlan's fold sequence, which the plan stores compressed: gemm_repeats
// x blocks x block.repeat x runs x run.count. The fold pipeline's three threads each walk the
// sequence with their own cursor; fast-forward jumps a cursor over whole iterations of one of
// the three repeating levels (a GEMM repeat, a block iteration, or one fold of a run).
#include <cstdint>
#include <optional>
#include <vector>

#include "archs/systolic/cost_model.h"

namespace polyarch::archs::systolic {

enum class RepeatLevel { kGemm = 0, kBlock = 1, kRun = 2 };
inline constexpr int kRepeatLevelCount = 3;

// One repeating level as seen from a position where one of its iterations begins.
struct RepeatSpan {
  int64_t first_index = 0;  // fold index where iteration 0 of this level began
  int64_t iteration = 0;    // iterations already done (the current one begins here)
  int64_t iterations = 0;   // all iterations of this level
  int64_t length = 0;       // folds per iteration
  int64_t read_bytes = 0;   // DRAM traffic per iteration
  int64_t write_bytes = 0;
  int64_t cycles = 0;  // compute cycles per iteration
};

class FoldCursor {
 public:
  // `plan` must outlive the cursor. Empty runs and blocks are ignored.
  explicit FoldCursor(const SystolicPlan& plan);

  bool done() const { return index_ >= total_folds_; }
  int64_t index() const { return index_; }
  int64_t total_folds() const { return total_folds_; }
  const FoldShape& shape() const;

  void advance();
  // The level's span if an iteration of `level` (and so of every level inside it) begins at
  // the current fold; nullopt otherwise.
  std::optional<RepeatSpan> span(RepeatLevel level) const;
  // Jumps over `iterations` whole iterations of `level`; span(level) must be engaged.
  void skip(RepeatLevel level, int64_t iterations);

 private:
  struct Run {
    FoldShape shape;
    int64_t count = 0;
  };
  struct Block {
    std::vector<Run> runs;
    int64_t repeat = 0;
    int64_t length = 0;  // folds per iteration
    int64_t read_bytes = 0;
    int64_t write_bytes = 0;
    int64_t cycles = 0;
  };

  void normalize();  // carries finished counters outward

  std::vector<Block> blocks_;
  int64_t gemm_repeats_ = 0;
  int64_t gemm_length_ = 0;
  int64_t gemm_read_bytes_ = 0;
  int64_t gemm_write_bytes_ = 0;
  int64_t gemm_cycles_ = 0;
  int64_t total_folds_ = 0;

  // Position: GEMM repeat, block, block iteration, run, fold within the run.
  int64_t gemm_ = 0;
  std::size_t block_ = 0;
  int64_t block_iteration_ = 0;
  std::size_t run_ = 0;
  int64_t fold_ = 0;
  int64_t index_ = 0;
  int64_t block_first_index_ = 0;  // where iteration 0 of the current block began
  int64_t run_first_index_ = 0;    // where fold 0 of the current run began
};

}  // namespace polyarch::archs::systolic
