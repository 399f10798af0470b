#pragma once
// Modulo scheduling of a placed and routed DFG (Rau, "Iterative modulo scheduling", MICRO
// 1994; for CGRAs Mei et al., DRESC, FPL 2002). The initiation interval is bounded below by
//   ResMII   = max(ceil(compute nodes / (PEs x stages)), ceil(memory nodes / (memory PEs x
//              ports)), ceil(scratchpad bytes per iteration / (memory PEs x bytes per cycle)))
//   RecMII   = max over dependence cycles C of ceil(sum of latencies and routing delays on C /
//              sum of distances on C)
//   RouteMII = max(max over links of ceil(values crossing the link / links per direction),
//              routing through PEs: max over PEs of ceil((nodes + values passing through) /
//              stages))
//   BufMII   = the smallest II at which credit-based flow control lets every value through:
//              a producer fires iteration j only once each consumer has fired iteration
//              j - buffer_values (and sees it the cycle after), so each value's round trip
//              (latency + routing delay + 1) fits in buffer_values x II, and a producer whose
//              value waits at one consumer while a longer path reaches it cannot run further
//              ahead than the buffers hold (RecMII over the dependence edges and these credit
//              edges back)
// and the schedule gives every node a start time within one iteration such that each value
// arrives before use, no consumer starts buffer_values x II or more after its producer, and no
// PE issues more than `stages` nodes and route-through moves (a memory PE more than its ports
// and bandwidth allow) in the same cycle modulo II. Values are routed hop
// by hop through a modulo reservation table of the links: a hop waits in its switch while its
// link is taken in that cycle modulo II, so a value's delay is at least ceil(hops /
// hops_per_cycle) and more where values contend for a link.
#include <cstdint>
#include <vector>

#include "archs/dataflow/dfg.h"
#include "archs/dataflow/fabric.h"
#include "archs/dataflow/params.h"
#include "archs/dataflow/placement.h"

namespace polyarch::archs::dataflow {

struct ModuloSchedule {
  int64_t ii = 0;
  int64_t res_mii = 0;
  int64_t rec_mii = 0;
  int64_t route_mii = 0;
  int64_t buffer_mii = 0;
  bool routing_bound = false;  // routing or its buffers, not issue slots or recurrences, set II
  int64_t depth_cycles = 0;          // one iteration from its first issue to its last result
  std::vector<int64_t> start;        // per node, cycles after the iteration's start
  std::vector<int64_t> route_delay;  // per edge, cycles the value spends in the network,
                                     // waits for busy links included
  int64_t pes_used = 0;
  int64_t memory_pes_used = 0;
  int64_t link_hops = 0;  // values x links crossed per iteration (multicast once)
  int64_t busiest_link_load = 0;
};

// Bytes one iteration moves through memory PEs: every load and store carries `lanes` elements.
int64_t memory_bytes_per_iteration(const DataflowParams& params, const Dfg& dfg,
                                   int64_t element_bytes);
int64_t res_mii(const DataflowParams& params, const Dfg& dfg, int64_t element_bytes);
// Smallest II for which no dependence cycle is longer than II x its distance; `route_delay`
// per edge (empty: 0).
int64_t rec_mii(const Dfg& dfg, const std::vector<int64_t>& route_delay);

// Routes every value along the placement (multicast: one value crosses a link once), then
// schedules at the smallest feasible II >= max(ResMII, RecMII, RouteMII).
ModuloSchedule modulo_schedule(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg,
                               const Placement& placement, int64_t element_bytes);

}  // namespace polyarch::archs::dataflow
