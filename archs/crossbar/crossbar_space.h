#pragma once
// The crossbar kind's mapping space for a GEMM or convolution, as the generic search sees it
// (mapping/space/mapping_problem.h). One dimension, the choice plan_op makes itself:
//   replicas   copies of the weights on otherwise idle arrays, each streaming its share of the
//              input vectors (max_replicas down to 1: the order ties are broken in)
// The weights' tiling onto arrays (ceil(K / rows) x ceil(N x cells per weight / cols) blocks)
// and the ADC sharing (adc.columns_per_adc) are fixed by the op and the hardware, so they are
// not dimensions; a layer whose weights do not fit has the single point replicas = 1. Every
// point is valid. The cost is the unit's estimate: the MVM stream (and reprogramming) plus the
// activations' DRAM transfers and two DRAM latencies, as the SystemC model runs them; the bound
// is compute or DRAM, whichever takes longer; energy is not priced here (0: replication does not
// change the conversion and cell-read counts the energy model prices). The exhaustive optimum
// is plan_op's own choice (tests/archs/crossbar/crossbar_space_test.cpp).
#include "archs/crossbar/cost_model.h"
#include "mapping/cache/unit_decisions.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::crossbar {

// DRAM as the crossbar's estimate sees it; bytes_per_second <= 0 means unlimited.
struct CrossbarMemory {
  double dram_bytes_per_second = 0;
  double dram_latency_s = 0;
};

class CrossbarMappingProblem final : public mapping::MappingProblem {
 public:
  // `op` must be one the unit supports (crossbar_supports).
  CrossbarMappingProblem(CrossbarParams params, ir::Op op, CrossbarMemory memory);

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;

  int64_t replicas(const mapping::MappingPoint& point) const;
  CrossbarPlan plan(const mapping::MappingPoint& point) const;

 private:
  double dram_seconds(const CrossbarPlan& plan) const;

  CrossbarParams params_;
  ir::Op op_;
  CrossbarMemory memory_;
  mapping::MappingSpace space_;
};

// The unit's latency for `plan` by its analytical model: what estimate_seconds returns.
double crossbar_seconds(const CrossbarPlan& plan, const CrossbarMemory& memory);

// The plan the unit runs: with `decisions` (polyarch run --search) the searched replication (the
// decision's description in mapping.search); otherwise plan_op's own.
CrossbarPlan plan_for_run(const CrossbarParams& params, const ir::Op& op,
                          const CrossbarMemory& memory, mapping::UnitDecisions* decisions);

}  // namespace polyarch::archs::crossbar
