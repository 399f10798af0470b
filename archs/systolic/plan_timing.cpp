#include "archs/systolic/plan_timing.h"

#include <algorithm>

namespace polyarch::archs::systolic {

namespace {

struct FoldTime {
  double compute_s = 0, load_s = 0, write_s = 0;
};

FoldTime fold_time(const FoldShape& shape, const sim::DramView& dram, double clock_ghz) {
  const double per_byte = dram.dram_bytes_per_second > 0 ? 1.0 / dram.dram_bytes_per_second : 0.0;
  return {.compute_s = static_cast<double>(shape.cycles) / (clock_ghz * 1e9),
          .load_s = static_cast<double>(shape.dram_read_bytes) * per_byte,
          .write_s = static_cast<double>(shape.dram_write_bytes) * per_byte};
}

// Sums over the two chains of folds (even and odd positions) of a fold sequence, and whether
// the sequence has an odd length (then a repetition of it swaps the chains).
struct Chains {
  double at[2] = {0, 0};
  bool odd = false;

  void append(double x, int64_t count) {
    const double more = static_cast<double>((count + 1) / 2),
                 fewer = static_cast<double>(count / 2);
    at[odd ? 1 : 0] += more * x;
    at[odd ? 0 : 1] += fewer * x;
    odd = odd != (count % 2 == 1);
  }
  void append(const Chains& other) {
    at[odd ? 1 : 0] += other.at[0];
    at[odd ? 0 : 1] += other.at[1];
    odd = odd != other.odd;
  }
  Chains repeated(int64_t times) const {
    Chains result;
    if (!odd) {
      result.at[0] = at[0] * static_cast<double>(times);
      result.at[1] = at[1] * static_cast<double>(times);
      return result;
    }
    const double more = static_cast<double>((times + 1) / 2),
                 fewer = static_cast<double>(times / 2);
    result.at[0] = more * at[0] + fewer * at[1];
    result.at[1] = more * at[1] + fewer * at[0];
    result.odd = times % 2 == 1;
    return result;
  }
};

}  // namespace

PlanTime plan_time(const SystolicPlan& plan, bool double_buffered, const sim::DramView& dram,
                   double clock_ghz) {
  PlanTime time;
  Chains gemm;
  double runs_s = 0;  // sum over folds of each run's own steady period
  const FoldShape* first = nullptr;
  const FoldShape* last = nullptr;
  for (const FoldBlock& block : plan.blocks) {
    Chains block_chains;
    for (const FoldRun& run : block.runs) {
      const FoldTime fold = fold_time(run.tile, dram, clock_ghz);
      const double count = static_cast<double>(run.count) * static_cast<double>(block.repeat) *
                           static_cast<double>(plan.gemm_repeats);
      time.compute_s += count * fold.compute_s;
      time.dram_s += count * (fold.load_s + fold.write_s);
      const double latency = run.tile.dram_read_bytes > 0 ? dram.dram_latency_s : 0.0;
      const double chain_step = fold.write_s + fold.load_s + latency + fold.compute_s;
      block_chains.append(chain_step, run.count);
      const double slots = double_buffered ? 2.0 : 1.0;
      runs_s += count * std::max({fold.compute_s, fold.load_s + fold.write_s, chain_step / slots});
      if (first == nullptr) first = &run.tile;
      last = &run.tile;
    }
    gemm.append(block_chains.repeated(block.repeat));
  }
  if (first == nullptr) return time;
  const Chains all = gemm.repeated(plan.gemm_repeats);
  const double chain_s = double_buffered ? std::max(all.at[0], all.at[1]) : all.at[0] + all.at[1];
  time.total_s = std::max({time.compute_s, time.dram_s, chain_s, runs_s});
  // Pipeline edges: the first fold's operands arrive before anything computes, and the last
  // fold's results leave after everything computed.
  const FoldTime head = fold_time(*first, dram, clock_ghz);
  const FoldTime tail = fold_time(*last, dram, clock_ghz);
  if (double_buffered && first->dram_read_bytes > 0) {
    time.total_s += head.load_s + dram.dram_latency_s;
  }
  if (last->dram_write_bytes > 0) time.total_s += tail.write_s + dram.dram_latency_s;
  return time;
}

}  // namespace polyarch::archs::systolic
