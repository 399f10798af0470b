#pragma once
// The pim kind's mapping space for a GEMM (GEMV-like: at most max_batch input vectors), as the
// generic search sees it (mapping/space/mapping_problem.h). One dimension, the choice plan_op
// makes itself:
//   partition   rows (each PU owns whole output rows; the inputs are broadcast to every
//               pseudo-channel) | columns (each PU owns a slice of the reduction; partial sums
//               leave per PU or per channel adder)
// How many input vectors a pass holds follows from the PU register file, and the banks a PU
// streams are the hardware's (banks_per_pu), so neither is a dimension. Both points are valid.
// The cost is the plan's command-clock cycles (bank streaming plus the external transfers); the
// bound is compute when the PUs' arithmetic paces the column commands, else DRAM (the banks'
// internal bandwidth, or the external bus when its transfers take longer); energy is
// pim_op_energy of the plan's commands and bytes. The exhaustive latency optimum is plan_op's
// own choice, by construction; tests/archs/pim/pim_space_test.cpp holds it to the command-level
// simulation: the other partition never simulates clearly faster.
#include "archs/pim/cost_model.h"
#include "archs/unit_search.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::pim {

class PimGemmMappingProblem final : public mapping::MappingProblem {
 public:
  // `op` must be a Gemm the unit supports.
  PimGemmMappingProblem(PimParams params, ir::Op op, MappingEnergy energy = {});

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;

  Partition partition(const mapping::MappingPoint& point) const;
  PimPlan plan(const mapping::MappingPoint& point) const;

 private:
  PimParams params_;
  ir::Op op_;
  MappingEnergy energy_;
  mapping::MappingSpace space_;
};

// The op's mapping space with its decision key; nullopt for ops without one (not a GEMM).
std::optional<KindMappingQuery<PimGemmMappingProblem>> pim_mapping_query(
    const PimParams& params, const ir::Op& op, const MappingEnergy& energy);

// The plan the unit runs: with `search` (polyarch run --search), a GEMM's partition is the
// searched one (the decision's description in mapping.search); otherwise, and for other ops,
// plan_op's own.
PimPlan plan_for_run(const PimParams& params, const ir::Op& op, UnitSearch* search);

}  // namespace polyarch::archs::pim
