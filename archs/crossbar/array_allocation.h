#pragma once
// How a crossbar unit shares its arrays among the ops it runs (its whole program, known before
// the first op runs). A chip that holds every layer's weights gives each layer its own arrays,
// as NeuroSim's floorplan (a layer's tiles, Chip.cpp ChipFloorPlan) and ISAAC (ISCA 2016,
// abstract: "some crossbars dedicated for each neural network layer", replicated for a balanced
// pipeline) do:
//   resident (sum_i a_i <= A, a_i the arrays op i's weights need, A the unit's arrays): op i
//     holds d_i x a_i arrays, d_i copies of its weights, programmed once before any run. The
//     spare arrays A - sum_i a_i go to copies one step at a time: each step moves one op to a
//     copy count where its waves, ceil(M_i / d_i), drop, the move that saves the most estimated
//     time (estimate.h) per array it adds among those that fit the spare arrays; moves that save
//     nothing still take idle arrays. The unit runs its ops one after another, so the sum of
//     their times is what the steps cut.
//   not resident (sum_i a_i > A, or the ops' estimated times sum lower so): no op's weights stay
//     between runs; each op may use the whole unit and writes its weights (every copy, or its
//     passes) at each run, so an op that fits alone does not run for free on arrays that other
//     ops' weights also claim. Where the weights fit only with few copies each, writing them at
//     each run on the whole unit can be the faster program; the allocation takes it then.
#include <map>
#include <string>
#include <vector>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/params.h"
#include "compiler/ir/op.h"
#include "sim/memory/dram_view.h"

namespace polyarch::archs::crossbar {

struct ArrayAllocation {
  bool resident = true;
  std::map<std::string, ArrayBudget> budgets;  // by op name

  // The op's budget; an op the allocation did not see has the whole unit to itself.
  ArrayBudget budget_of(const std::string& op_name) const;
};

// `ops`: the unit's ops, each once, in issue order (ops the unit cannot run are skipped).
ArrayAllocation allocate_arrays(const CrossbarParams& params, const std::vector<const ir::Op*>& ops,
                                const sim::DramView& memory);

}  // namespace polyarch::archs::crossbar
