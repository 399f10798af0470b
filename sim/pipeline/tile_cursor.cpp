#include "sim/pipeline/tile_cursor.h"

#include "base/checked_math.h"

namespace polyarch::sim {

TileCursor::TileCursor(const TilePlan& plan) {
  for (const TileBlock& plan_block : plan.blocks) {
    Block block;
    block.repeat = plan_block.repeat;
    for (const TileRun& run : plan_block.runs) {
      if (run.count <= 0) continue;
      block.runs.push_back(run);
      block.length = checked_add(block.length, run.count, "tiles per block");
      block.read_bytes =
          checked_add(block.read_bytes, checked_mul(run.count, run.tile.dram_read_bytes, "bytes"),
                      "block DRAM bytes");
      block.write_bytes =
          checked_add(block.write_bytes, checked_mul(run.count, run.tile.dram_write_bytes, "bytes"),
                      "block DRAM bytes");
      block.cycles = checked_add(block.cycles, checked_mul(run.count, run.tile.cycles, "cycles"),
                                 "block cycles");
    }
    if (block.repeat <= 0 || block.runs.empty()) continue;
    plan_length_ = checked_add(plan_length_, checked_mul(block.repeat, block.length, "tiles"),
                               "tiles per plan");
    plan_read_bytes_ = checked_add(plan_read_bytes_,
                                   checked_mul(block.repeat, block.read_bytes, "bytes"), "bytes");
    plan_write_bytes_ = checked_add(plan_write_bytes_,
                                    checked_mul(block.repeat, block.write_bytes, "bytes"), "bytes");
    plan_cycles_ =
        checked_add(plan_cycles_, checked_mul(block.repeat, block.cycles, "cycles"), "cycles");
    blocks_.push_back(std::move(block));
  }
  plan_repeats_ = blocks_.empty() ? 0 : plan.plan_repeats;
  total_tiles_ = plan_repeats_ > 0 ? checked_mul(plan_repeats_, plan_length_, "tile count") : 0;
}

const TileShape& TileCursor::tile() const { return blocks_[block_].runs[run_].tile; }

void TileCursor::advance() {
  ++tile_;
  ++index_;
  normalize();
}

void TileCursor::normalize() {
  if (done()) return;
  const Block* block = &blocks_[block_];
  if (tile_ < block->runs[run_].count) return;
  tile_ = 0;
  run_first_index_ = index_;
  if (++run_ < block->runs.size()) return;
  run_ = 0;
  if (++block_iteration_ < block->repeat) return;
  block_iteration_ = 0;
  block_first_index_ = index_;
  if (++block_ < blocks_.size()) return;
  block_ = 0;
  ++plan_repeat_;
}

std::optional<RepeatSpan> TileCursor::span(RepeatLevel level) const {
  if (done()) return std::nullopt;
  const Block& block = blocks_[block_];
  switch (level) {
    case RepeatLevel::kRun: {
      const TileShape& tile = block.runs[run_].tile;
      return RepeatSpan{
          run_first_index_,      tile_,      block.runs[run_].count, 1, tile.dram_read_bytes,
          tile.dram_write_bytes, tile.cycles};
    }
    case RepeatLevel::kBlock:
      if (tile_ != 0 || run_ != 0) return std::nullopt;
      return RepeatSpan{block_first_index_, block_iteration_,  block.repeat, block.length,
                        block.read_bytes,   block.write_bytes, block.cycles};
    case RepeatLevel::kPlan:
      if (tile_ != 0 || run_ != 0 || block_iteration_ != 0 || block_ != 0) return std::nullopt;
      return RepeatSpan{0,
                        plan_repeat_,
                        plan_repeats_,
                        plan_length_,
                        plan_read_bytes_,
                        plan_write_bytes_,
                        plan_cycles_};
  }
  return std::nullopt;
}

void TileCursor::skip(RepeatLevel level, int64_t iterations) {
  const std::optional<RepeatSpan> at = span(level);
  if (!at || iterations <= 0 || at->iteration + iterations > at->iterations) {
    throw_runtime({}, "tile cursor: invalid fast-forward");
  }
  index_ += iterations * at->length;
  switch (level) {
    case RepeatLevel::kRun:
      tile_ += iterations;
      break;
    case RepeatLevel::kBlock:
      // Land on the next iteration's first tile as if it had been reached tile by tile.
      block_iteration_ += iterations - 1;
      run_ = blocks_[block_].runs.size() - 1;
      tile_ = blocks_[block_].runs[run_].count;
      break;
    case RepeatLevel::kPlan:
      // Already at a plan boundary: block, run and tile stay 0 and begin here.
      plan_repeat_ += iterations;
      block_first_index_ = index_;
      run_first_index_ = index_;
      return;
  }
  normalize();
}

}  // namespace polyarch::sim
