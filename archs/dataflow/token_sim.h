#pragma once
// A token-driven, cycle-level reference for a placed DFG loop, independent of the modulo
// schedule: it reads the graph, the placement and the fabric's parameters, never the schedule's
// interval, start times or route delays.
//  - A node fires iteration i once it has fired i - 1, its operands of that iteration have
//    arrived, its site has an issue slot left this cycle (a compute PE `stages`, a memory PE
//    `ports` and `bytes_per_cycle` of scratchpad bandwidth) and every consumer has room for the
//    value (`buffer_values` queued per producer and consumer, credit-based flow control). At most
//    one iteration of a node fires per cycle; ready firings are served oldest iteration first.
//  - A value leaves its producer `latency` cycles after it fired and travels hop by hop: every
//    switch forwards it dimension-ordered (along the row first, then the column; on a torus the
//    shorter way round), a fan-out splits where the routes part, so it crosses each link once.
//    A link carries `links_per_direction` values per cycle (a memory PE's link `ports`), oldest
//    first; a value crosses up to `hops_per_cycle` links per cycle and waits in the switch when a
//    link is full. With `routing: through_pes` a value leaving a PE it only passes through takes
//    one of that PE's issue slots that cycle (a route-through move). A value that reaches its
//    consumer's site in cycle c can be used from cycle c + 1.
// The run ends when the last firing's result is written.
#include <cstdint>

#include "archs/dataflow/dfg.h"
#include "archs/dataflow/params.h"
#include "archs/dataflow/placement.h"

namespace polyarch::archs::dataflow {

struct TokenRun {
  int64_t cycles = 0;               // until the last result of the last iteration
  int64_t fires = 0;                // node firings (nodes x iterations)
  int64_t link_crossings = 0;       // values x links crossed, all iterations
  int64_t route_through_moves = 0;  // issue slots spent passing values on (through_pes)
  int64_t credit_stalls = 0;        // firings that waited for buffer room (node x cycle)
  int64_t link_waits = 0;           // values x cycles spent waiting for a full link
  int64_t peak_values_in_network = 0;
};

TokenRun simulate_tokens(const DataflowParams& params, const Dfg& dfg, const Placement& placement,
                         int64_t iterations, int64_t element_bytes);

}  // namespace polyarch::archs::dataflow
