#pragma once
// The crossbar kind's mapping space for a GEMM or convolution, as the generic search sees it
// (mapping/space/mapping_problem.h). One dimension, the choice plan_op makes itself:
//   replicas   copies of the weights on the op's otherwise idle arrays, each streaming its share of the
//              input vectors (max_replicas down to 1: the order ties are broken in)
// The weights' tiling onto arrays (ceil(K / rows) x ceil(N x cells per weight / cols) blocks)
// and the ADC sharing (adc.columns_per_adc) are fixed by the op and the hardware, so they are
// not dimensions; a layer whose weights do not fit has the single point replicas = 1. Every
// point is valid. The cost is the unit's closed-form estimate (estimate.h: arrays, ADCs, DRAM
// and reprogramming, overlapped as the double-buffered pipeline overlaps them) and its bound
// (op_bound.h); energy is crossbar_op_energy of the plan's counts: replication leaves the
// conversions and cell reads as they are but programs every copy of the weights and changes
// how long the arrays leak. Tests simulate the searched replication against alternatives
// (tests/archs/crossbar/crossbar_space_test.cpp).
#include "archs/crossbar/cost_model.h"
#include "archs/unit_search.h"
#include "mapping/space/mapping_problem.h"
#include "sim/memory/dram_view.h"

namespace polyarch::archs::crossbar {

class CrossbarMappingProblem final : public mapping::MappingProblem {
 public:
  // `op` must be one the unit supports (crossbar_supports).
  // `budget`: the arrays the unit's allocation gives the op (array_allocation.h).
  CrossbarMappingProblem(CrossbarParams params, ir::Op op, sim::DramView memory,
                         MappingEnergy energy = {}, ArrayBudget budget = {});

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;

  int64_t replicas(const mapping::MappingPoint& point) const;
  CrossbarPlan plan(const mapping::MappingPoint& point) const;

 private:
  CrossbarParams params_;
  ir::Op op_;
  sim::DramView memory_;
  MappingEnergy energy_;
  ArrayBudget budget_;
  mapping::MappingSpace space_;
};

// The unit's latency for `plan` by its analytical model (estimate.h): what estimate_seconds
// returns.
double crossbar_seconds(const CrossbarParams& params, const CrossbarPlan& plan,
                        const sim::DramView& memory);

// The op's mapping space with its decision key; nullopt for ops the unit does not take.
std::optional<KindMappingQuery<CrossbarMappingProblem>> crossbar_mapping_query(
    const CrossbarParams& params, const ir::Op& op, const sim::DramView& memory,
    const MappingEnergy& energy, ArrayBudget budget = {});

// The plan the unit runs: with `search` (polyarch run --search) the searched replication (the
// decision's description in mapping.search); otherwise plan_op's own.
CrossbarPlan plan_for_run(const CrossbarParams& params, const ir::Op& op,
                          const sim::DramView& memory, UnitSearch* search,
                          ArrayBudget budget = {});

}  // namespace polyarch::archs::crossbar
