#pragma once
// How a mimd unit runs one op: every active core runs the same sequence of steps on its share
// of the op (the partition keeps shares equal). A step loads operands from DRAM through the
// core's memory port and the NoC, computes, and may store results back the same way.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace polyarch::archs::mimd {

struct CoreStep {
  int64_t load_bytes = 0;
  int64_t compute_cycles = 0;
  int64_t store_bytes = 0;
};

struct CoreStepRun {
  CoreStep step;
  int64_t count = 0;
};

struct MimdPlan {
  std::string kernel;
  int64_t active_cores = 1;
  std::vector<CoreStepRun> runs;  // one core's steps, in order ...
  int64_t repeat = 1;             // ... run this many times (sub-blocks, items per core)
  int64_t dispatch_cycles = 0;
  int64_t barrier_cycles = 0;
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t dram_read_bytes = 0;   // all cores
  int64_t dram_write_bytes = 0;  // all cores
  int64_t compute_cycles = 0;    // dispatch + one core's compute + barrier
  double peak_flops_per_cycle = 0;
  double mapping_efficiency = 0;  // useful / issued work (partition remainders)
  // The DRAM bytes per cycle one core's outstanding line misses sustain (Little's law,
  // MimdParams::core_miss_bytes_per_cycle); 0: unbounded.
  double core_miss_bytes_per_cycle = 0;
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();

  int64_t step_count() const;  // per core
  // The cycles one core's DRAM bytes (loads and stores) take at core_miss_bytes_per_cycle; 0
  // when unbounded.
  double miss_window_cycles() const;
  // Fills dram_*_bytes and compute_cycles from the steps.
  void finish_totals();
};

}  // namespace polyarch::archs::mimd
