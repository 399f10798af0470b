#pragma once
// Time of a fold plan without SystemC: the analytical twin of the tile runner that executes it
// in simulation (sim/pipeline/tile_runner.h, fed by fold_tiles.h), used by
// mapping search (microseconds per call). Per fold i: C_i compute time, L_i = dram_read_bytes /
// bandwidth, W_i = dram_write_bytes / bandwidth (reads and writes share one FCFS channel), and
// the latency `lat` when the fold loads anything. With S buffer slots (2 double buffered, else
// 1) the loader issues fold i+S's load when fold i has computed, behind fold i's write (writes
// issued at the same instant go first), so fold i+S computes no earlier than
// end_i + W_i + L_{i+S} + lat + C_{i+S}: S interleaved chains. The plan takes
//   max(sum C, sum (L + W), the longest chain of X_i = W_i + L_i + lat + C_i,
//       sum over folds of max(C_i, L_i + W_i, X_i / S))
// (the last term: a fold heavier than its neighbours stalls compute locally, which the chain
// sums would average away; slack is not banked beyond S folds)
// plus the first fold's load and the last fold's write, which nothing overlaps. Chains are
// summed run by run (folds repeat in runs and blocks), so the cost does not grow with folds.
// Contention with other units is not modelled here.
#include "archs/systolic/cost_model.h"
#include "sim/memory/dram_view.h"

namespace polyarch::archs::systolic {

struct PlanTime {
  double total_s = 0.0;
  double compute_s = 0.0;  // sum of fold compute times
  double dram_s = 0.0;     // sum of channel occupancy
};

// `clock_ghz` is the unit's clock, in which the folds' cycles count.
PlanTime plan_time(const SystolicPlan& plan, bool double_buffered, const sim::DramView& dram,
                   double clock_ghz);

}  // namespace polyarch::archs::systolic
