#pragma once
// A cycle-level reference for the modulo-scheduled loop, independent of the closed form. The
// placed DFG runs cycle by cycle in one of two ways:
//  - kStatic: as a statically configured CGRA does: every PE issues node v of iteration i at
//    exactly i x II + start(v) (its configuration memory cycles through the II slots). The run
//    counts operands that had not arrived when their consumer issued (producer's issue cycle +
//    latency + network delay; loop-carried operands from iteration i - distance) and the most
//    nodes any PE issued in one cycle, so a schedule that breaks a dependence or oversubscribes
//    a PE shows; it ends when the last iteration's last result is written.
//  - kSelfTimed: each node fires its iteration i once iteration i - 1 has fired, its operands
//    have arrived and its PE has an issue slot left (`stages`, a memory PE `ports`); nodes
//    without intra-iteration producers (the loads' address generators) no earlier than i x II.
//    It can only be as fast as or faster than the static schedule.
// Values wait in the network's buffers in both. Tests hold the closed form (depth + II x
// (iterations - 1)) to the static run exactly and bound the self-timed run by it.
#include <cstdint>

#include "archs/dataflow/dfg.h"
#include "archs/dataflow/modulo_schedule.h"
#include "archs/dataflow/params.h"
#include "archs/dataflow/placement.h"

namespace polyarch::archs::dataflow {

enum class ReferenceMode { kStatic, kSelfTimed };

struct ReferenceRun {
  int64_t cycles = 0;                // until the last result of the last iteration
  int64_t fires = 0;                 // node firings (nodes x iterations)
  int64_t busiest_cycle_issues = 0;  // most nodes any PE issued in one cycle
  int64_t late_operands = 0;         // kStatic: operands not there when their consumer issued
};

ReferenceRun simulate_loop(const DataflowParams& params, const Dfg& dfg, const Placement& placement,
                           const ModuloSchedule& schedule, int64_t iterations,
                           ReferenceMode mode = ReferenceMode::kStatic);

}  // namespace polyarch::archs::dataflow
