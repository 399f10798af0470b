#include "archs/simd/kernel_plan.h"

#include <algorithm>
#include <cmath>

#include "base/checked_math.h"

namespace polyarch::archs::simd {

std::string_view bound_name(Bound bound) {
  switch (bound) {
    case Bound::kMatrix:
      return "matrix";
    case Bound::kVector:
      return "vector";
    case Bound::kSfu:
      return "sfu";
    case Bound::kScratchpad:
      return "scratchpad";
    case Bound::kCorePort:
      return "core_port";
    case Bound::kL2:
      return "l2";
    case Bound::kDram:
      return "dram";
    case Bound::kLatency:
      return "latency";
  }
  return "?";
}

std::string_view bound_class(Bound bound) {
  switch (bound) {
    case Bound::kMatrix:
    case Bound::kVector:
    case Bound::kSfu:
      return "compute";
    case Bound::kScratchpad:
    case Bound::kCorePort:
    case Bound::kL2:
      return "l2";
    case Bound::kDram:
      return "dram";
    case Bound::kLatency:
      return "latency";
  }
  return "?";
}

void KernelPlan::add_block(std::vector<StepRun> runs, int64_t repeat) {
  std::erase_if(runs, [](const StepRun& run) { return run.count <= 0; });
  if (runs.empty() || repeat <= 0) return;
  for (const StepRun& run : runs) {
    const int64_t count = checked_mul(run.count, repeat, "kernel steps");
    compute_cycles =
        checked_add(compute_cycles, checked_mul(run.tile.cycles, count, "cycles"), "cycles");
    dram_read_bytes = checked_add(
        dram_read_bytes, checked_mul(run.tile.dram_read_bytes, count, "bytes"), "bytes");
    dram_write_bytes = checked_add(
        dram_write_bytes, checked_mul(run.tile.dram_write_bytes, count, "bytes"), "bytes");
  }
  blocks.push_back({std::move(runs), repeat});
}

void KernelPlan::add_activity(const KernelPlan& part) {
  for (const auto& [dtype, macs] : part.matrix_macs) {
    matrix_macs[dtype] = checked_add(matrix_macs[dtype], macs, "MACs");
  }
  for (const auto& [dtype, ops] : part.vector_ops) {
    vector_ops[dtype] = checked_add(vector_ops[dtype], ops, "lane ops");
  }
  sfu_ops = checked_add(sfu_ops, part.sfu_ops, "SFU ops");
  scratchpad_bytes = checked_add(scratchpad_bytes, part.scratchpad_bytes, "bytes");
}

int64_t KernelPlan::step_count() const {
  int64_t steps = 0;
  for (const StepBlock& block : blocks) {
    for (const StepRun& run : block.runs) steps += run.count * block.repeat;
  }
  return steps;
}

namespace {

class ChannelEstimate {
 public:
  ChannelEstimate(double dram_bytes_per_cycle, int64_t latency_cycles, int64_t slots)
      : bytes_per_cycle_(dram_bytes_per_cycle),
        latency_cycles_(static_cast<double>(latency_cycles)),
        slots_(static_cast<double>(std::max<int64_t>(1, slots))) {}

  double cycles_for(int64_t bytes) const {
    if (bytes_per_cycle_ <= 0 || bytes == 0) return 0.0;
    return static_cast<double>(bytes) / bytes_per_cycle_;
  }

  // Time of `runs` in order: step i overlaps step i+1's reads and step i-1's writes on the
  // channel. `previous_writes`: the writes of the step before the first; `reads_after`: the
  // reads of the step after the last.
  // The plan's first step (`starts_plan`) had its fetch exposed before it; later steps' fetches
  // are in flight while earlier steps compute.
  double sequence(const std::vector<StepRun>& runs, int64_t previous_writes, int64_t reads_after,
                  bool starts_plan = false) const {
    double total = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const KernelStep& step = runs[r].tile;
      const int64_t count = runs[r].count;
      const int64_t next_reads = r + 1 < runs.size() ? runs[r + 1].tile.dram_read_bytes
                                                     : reads_after;
      const double cycles = static_cast<double>(step.cycles);
      const double in_flight =
          step.dram_read_bytes > 0
              ? (cycles_for(step.dram_read_bytes) + latency_cycles_ + cycles) / slots_
              : 0.0;
      auto step_time = [&](int64_t reads, int64_t writes, bool fetched_before = false) {
        return std::max({cycles, cycles_for(reads + writes), fetched_before ? 0.0 : in_flight});
      };
      const bool first_of_plan = starts_plan && r == 0;
      if (count == 1) {
        total += step_time(next_reads, previous_writes, first_of_plan);
      } else {
        total += step_time(step.dram_read_bytes, previous_writes, first_of_plan);
        total += step_time(step.dram_read_bytes, step.dram_write_bytes) *
                 static_cast<double>(count - 2);
        total += step_time(next_reads, step.dram_write_bytes);
      }
      previous_writes = step.dram_write_bytes;
    }
    return total;
  }

 private:
  double bytes_per_cycle_;
  double latency_cycles_;
  double slots_;
};

}  // namespace

int64_t estimate_cycles(const KernelPlan& plan, double dram_bytes_per_cycle,
                        int64_t dram_latency_cycles) {
  const ChannelEstimate channel(dram_bytes_per_cycle, dram_latency_cycles, plan.staging_slots);
  double total = static_cast<double>(plan.launch_cycles);
  if (plan.blocks.empty()) return static_cast<int64_t>(std::ceil(total));
  const int64_t first_reads = plan.blocks.front().runs.front().tile.dram_read_bytes;
  if (first_reads > 0) {
    total += channel.cycles_for(first_reads) + static_cast<double>(dram_latency_cycles);
  }
  int64_t previous_writes = 0;
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    const StepBlock& block = plan.blocks[b];
    const int64_t block_reads = block.runs.front().tile.dram_read_bytes;
    const int64_t block_writes = block.runs.back().tile.dram_write_bytes;
    const int64_t reads_after =
        b + 1 < plan.blocks.size() ? plan.blocks[b + 1].runs.front().tile.dram_read_bytes : 0;
    const bool starts_plan = b == 0;
    if (block.repeat == 1) {
      total += channel.sequence(block.runs, previous_writes, reads_after, starts_plan);
    } else {
      total += channel.sequence(block.runs, previous_writes, block_reads, starts_plan);
      total += channel.sequence(block.runs, block_writes, block_reads) *
               static_cast<double>(block.repeat - 2);
      total += channel.sequence(block.runs, block_writes, reads_after);
    }
    previous_writes = block_writes;
  }
  if (previous_writes > 0) {
    total += channel.cycles_for(previous_writes) + static_cast<double>(dram_latency_cycles);
  }
  return static_cast<int64_t>(std::ceil(total));
}

}  // namespace polyarch::archs::simd
