#pragma once
// The mimd kind's mapping space for a GEMM or convolution, as the generic search sees it
// (mapping/space/mapping_problem.h). One dimension, the choice plan_op makes itself:
//   grid   rows x cols of cores per GEMM (gemm_grid_candidates, in plan_op's order)
// The sub-blocking of a core's share (accumulators in half the private memory), the K chunk
// (operand slices double-buffered in the other half) and the cores a batch of GEMMs spreads over
// follow from the grid, so they are not dimensions of their own. Every point is valid (the
// candidates already fit the GEMM). The cost is estimate_cycles of the plan on the unit's clock;
// the bound is whichever of compute, DRAM bandwidth and the memory ports' NoC links takes
// longest; energy is mimd_op_energy of the plan's counts, with the NoC bytes x hops each active
// core's share travels to its nearest memory port (what the SystemC NoC counts).
// The exhaustive optimum is plan_op's own choice, by construction; tests/archs/mimd/
// mimd_space_test.cpp holds it to the SystemC model: no other grid simulates clearly faster.
#include <string>
#include <vector>

#include "archs/mimd/mapper.h"
#include "archs/unit_search.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::mimd {

class MimdGemmMappingProblem final : public mapping::MappingProblem {
 public:
  // `op` must be a Gemm or Conv2d.
  MimdGemmMappingProblem(MimdParams params, ir::Op op, MimdMemoryView memory, double clock_ghz,
                         MappingEnergy energy = {});

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;
  std::vector<double> features(const mapping::MappingPoint& point) const override;

  GemmGrid grid(const mapping::MappingPoint& point) const;
  MimdPlan plan(const mapping::MappingPoint& point) const;
  // NoC bytes x hops of a plan: each active core's DRAM bytes between it and its memory port.
  double noc_link_bytes(const MimdPlan& plan) const;

 private:
  MimdParams params_;
  ir::Op op_;
  MimdMemoryView memory_;
  double clock_ghz_;
  MappingEnergy energy_;
  std::vector<GemmGrid> grids_;
  mapping::MappingSpace space_;
  std::vector<int64_t> port_hops_before_;  // [c]: hops to the nearest port, summed over cores < c
};

// The op's mapping space with its decision key; nullopt for ops without one (not GEMM-like).
std::optional<KindMappingQuery<MimdGemmMappingProblem>> mimd_mapping_query(
    const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory, double clock_ghz,
    const MappingEnergy& energy);

// The plan the unit runs: with `search` (polyarch run --search), a GEMM's or convolution's
// grid is the searched one (the decision's description in mapping.search); otherwise, and for
// other ops, plan_op's own.
MimdPlan plan_for_run(const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory,
                      double clock_ghz, UnitSearch* search);

}  // namespace polyarch::archs::mimd
