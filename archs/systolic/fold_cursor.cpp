#include "archs/systolic/fold_cursor.h"

#include "base/checked_math.h"

namespace polyarch::archs::systolic {

FoldCursor::FoldCursor(const SystolicPlan& plan) {
  for (const FoldBlock& plan_block : plan.blocks) {
    Block block;
    block.repeat = plan_block.repeat;
    for (const FoldRun& run : plan_block.runs) {
      if (run.count <= 0) continue;
      block.runs.push_back({run.shape, run.count});
      block.length = checked_add(block.length, run.count, "folds per block");
      block.read_bytes =
          checked_add(block.read_bytes, checked_mul(run.count, run.shape.dram_read_bytes, "bytes"),
                      "block DRAM bytes");
      block.write_bytes = checked_add(block.write_bytes,
                                      checked_mul(run.count, run.shape.dram_write_bytes, "bytes"),
                                      "block DRAM bytes");
      block.cycles = checked_add(block.cycles, checked_mul(run.count, run.shape.cycles, "cycles"),
                                 "block cycles");
    }
    if (block.repeat <= 0 || block.runs.empty()) continue;
    gemm_length_ = checked_add(gemm_length_, checked_mul(block.repeat, block.length, "folds"),
                               "folds per GEMM");
    gemm_read_bytes_ = checked_add(gemm_read_bytes_,
                                   checked_mul(block.repeat, block.read_bytes, "bytes"), "bytes");
    gemm_write_bytes_ = checked_add(gemm_write_bytes_,
                                    checked_mul(block.repeat, block.write_bytes, "bytes"), "bytes");
    gemm_cycles_ =
        checked_add(gemm_cycles_, checked_mul(block.repeat, block.cycles, "cycles"), "cycles");
    blocks_.push_back(std::move(block));
  }
  gemm_repeats_ = blocks_.empty() ? 0 : plan.gemm_repeats;
  total_folds_ = gemm_repeats_ > 0 ? checked_mul(gemm_repeats_, gemm_length_, "fold count") : 0;
}

const FoldShape& FoldCursor::shape() const { return blocks_[block_].runs[run_].shape; }

void FoldCursor::advance() {
  ++fold_;
  ++index_;
  normalize();
}

void FoldCursor::normalize() {
  if (done()) return;
  const Block* block = &blocks_[block_];
  if (fold_ < block->runs[run_].count) return;
  fold_ = 0;
  run_first_index_ = index_;
  if (++run_ < block->runs.size()) return;
  run_ = 0;
  if (++block_iteration_ < block->repeat) return;
  block_iteration_ = 0;
  block_first_index_ = index_;
  if (++block_ < blocks_.size()) return;
  block_ = 0;
  ++gemm_;
}

std::optional<RepeatSpan> FoldCursor::span(RepeatLevel level) const {
  if (done()) return std::nullopt;
  const Block& block = blocks_[block_];
  switch (level) {
    case RepeatLevel::kRun: {
      const FoldShape& fold = block.runs[run_].shape;
      return RepeatSpan{
          run_first_index_,      fold_,      block.runs[run_].count, 1, fold.dram_read_bytes,
          fold.dram_write_bytes, fold.cycles};
    }
    case RepeatLevel::kBlock:
      if (fold_ != 0 || run_ != 0) return std::nullopt;
      return RepeatSpan{block_first_index_, block_iteration_,  block.repeat, block.length,
                        block.read_bytes,   block.write_bytes, block.cycles};
    case RepeatLevel::kGemm:
      if (fold_ != 0 || run_ != 0 || block_iteration_ != 0 || block_ != 0) return std::nullopt;
      return RepeatSpan{
          0, gemm_, gemm_repeats_, gemm_length_, gemm_read_bytes_, gemm_write_bytes_, gemm_cycles_};
  }
  return std::nullopt;
}

void FoldCursor::skip(RepeatLevel level, int64_t iterations) {
  const std::optional<RepeatSpan> at = span(level);
  if (!at || iterations <= 0 || at->iteration + iterations > at->iterations) {
    throw_runtime({}, "fold cursor: invalid fast-forward");
  }
  index_ += iterations * at->length;
  switch (level) {
    case RepeatLevel::kRun:
      fold_ += iterations;
      break;
    case RepeatLevel::kBlock:
      // Land on the next iteration's first fold as if it had been reached fold by fold.
      block_iteration_ += iterations - 1;
      run_ = blocks_[block_].runs.size() - 1;
      fold_ = blocks_[block_].runs[run_].count;
      break;
    case RepeatLevel::kGemm:
      // Already at a GEMM boundary: block, run and fold stay 0 and begin here.
      gemm_ += iterations;
      block_first_index_ = index_;
      run_first_index_ = index_;
      return;
  }
  normalize();
}

}  // namespace polyarch::archs::systolic
