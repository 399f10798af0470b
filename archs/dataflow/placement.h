#pragma once
// Placement of a DFG on the fabric by simulated annealing with a fixed seed (VPR-style: a
// greedy start, then random moves and swaps accepted by the Metropolis rule under a geometric
// cooling schedule; Betz & Rose, FPL 1997). Compute nodes go to compute PEs, loads and stores
// to memory PEs. At initiation interval II a compute PE hosts up to II x stages nodes (and their
// stationary registers up to `registers`), a memory PE up to II x ports streams. The cost is the
// total number of hops of all values, so producers and consumers end up close.
#include <cstdint>
#include <vector>

#include "archs/dataflow/dfg.h"
#include "archs/dataflow/fabric.h"
#include "archs/dataflow/params.h"

namespace polyarch::archs::dataflow {

struct Placement {
  std::vector<Site> sites;  // per DFG node
  int64_t ii = 1;           // the interval whose issue slots the placement fills
  int64_t total_hops = 0;
  int64_t initial_hops = 0;  // of the greedy start, before annealing
};

// Nodes per site at `ii`: compute PEs ii x stages, memory PEs ii x ports as far as their
// scratchpad bandwidth serves accesses of `lanes x element_bytes` (a 64-byte-per-cycle PMU
// with two ports serves one 16-lane fp32 stream per cycle, not two).
int64_t compute_slots(const DataflowParams& params, int64_t ii);
int64_t memory_slots(const DataflowParams& params, int64_t ii, int64_t element_bytes);
// Accesses a memory PE can issue in one cycle: its ports, as far as its bandwidth allows.
int64_t memory_issue_width(const DataflowParams& params, int64_t element_bytes);

// Places `dfg` at initiation interval `ii`; nullopt-like empty sites when it does not fit.
Placement place(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg, int64_t ii,
                int64_t element_bytes);

}  // namespace polyarch::archs::dataflow
