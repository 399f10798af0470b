#pragma once
// Runs a Program on an SoC in a fresh SystemC context. SystemC keeps one global context per
// process; each call here creates its own and deletes it afterwards, so tests and sweeps may
// run many simulations in one process (sequentially — SystemC is not thread-safe).
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "mapping/program/program.h"
#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_spec.h"
#include "sim/result.h"

namespace polyarch::sim {

struct UnitSpec {
  std::string name;
  std::string kind;
  UnitFactory make;
  // The type the unit computes an op in (an op that names none: the unit's own); unset: the
  // op's tensors are stored as they are typed.
  std::function<ir::DType(const ir::Op&)> run_dtype;
};

struct SystemSpec {
  std::string name;
  double clock_ghz = 1.0;
  DramSpec dram;
  InterconnectSpec interconnect;
  std::vector<UnitSpec> units;
  // DVFS: a unit's clock frequency over time by unit name (absent: nominal throughout).
  std::map<std::string, ClockSchedule> clock_schedules;
};

// Each unit executes its ops in program order; an op also waits for its deps on other units.
// Returns per-op and per-unit results and the summary (provenance is left to the caller).
RunResult simulate(const SystemSpec& system, const mapping::Program& program,
                   const ir::Graph& graph);

}  // namespace polyarch::sim
