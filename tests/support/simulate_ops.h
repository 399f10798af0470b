#pragma once
// Simulates independent ops on a hand-built system: op i runs on unit i % unit count, with no
// data between ops, so each op's timing is the unit's alone (or its contention with the others).
#include <vector>

#include "compiler/ir/graph.h"
#include "mapping/program/program.h"
#include "sim/kernel/simulation.h"

namespace polyarch::test_support {

inline sim::RunResult simulate_ops(const sim::SystemSpec& system, const std::vector<ir::Op>& ops) {
  ir::Graph graph("test");
  mapping::Program program;
  program.per_unit.resize(system.units.size());
  for (const ir::Op& op : ops) {
    const int index = static_cast<int>(program.ops.size());
    const int unit = index % static_cast<int>(system.units.size());
    mapping::ProgramOp entry;  // no deps: the ops are independent
    entry.node = graph.add_op(op);
    entry.unit_index = unit;
    program.ops.push_back(std::move(entry));
    program.per_unit[unit].push_back(index);
  }
  return sim::simulate(system, program, graph);
}

}  // namespace polyarch::test_support
