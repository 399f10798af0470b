#pragma once
// The dataflow kind's mapping space for a GEMM or convolution, as the generic search sees it
// (mapping/space/mapping_problem.h). The dimensions are the choices plan_gemm_phases makes:
//   k_unroll      1, 2, 4 ... 64   MACs of the weight tile along K (the MAC chain's length)
//   n_unroll      1, 2, 4 ... 64   MACs along N (output columns per iteration)
//   replication   full | half      copies of the tile that fill the fabric, or half as many
//                                  (fewer values to route: lower II where links congest)
//   rows          whole | blocked  rows of A through each round of weight tiles, or in blocks
//                                  that stay on chip (A once, B once per block; valid where
//                                  A and C do not fit and a lane vector of rows does)
//   orientation   ab | ba          C = A B (B's tile stationary, A's rows stream) or
//                                  C^T = B^T A^T (A's tile stationary, B's columns stream)
//   form          tile | dot       weight-stationary tiles, or dot products with the lanes
//                                  along K (k_unroll 1, n_unroll columns per iteration, rows
//                                  whole; valid where the GEMM's rows or columns cannot fill
//                                  a lane vector)
// Valid where the fabric holds the tile (K x N weights in the PEs' registers, unrolls within
// the GEMM's K and N). The initiation interval is not a dimension: placement and the modulo
// scheduler find the smallest one the tile's resources and routes allow. The cost places,
// routes and schedules the tile (cached by the unit's MappingCache) and is the op's
// estimate_cycles with the unit's DRAM: compute- or DRAM-bound, whichever dominates. Energy is
// dataflow_op_energy of the plan's activity (MACs, ALU ops, scratchpad bytes, network bit-hops,
// each phase's configuration loaded once). plan_op's own choice minimises the same estimate with
// the same DRAM over the same choices (placing only candidates whose lower bound can beat the
// best so far), so it is the exhaustive optimum up to ties, except that it counts a DRAM latency
// per phase of the dot products where the op's estimate counts one.
// tests/archs/dataflow/dataflow_space_test.cpp holds the choice to the SystemC model: no
// neighbouring or other tiling simulates clearly faster.
#include <memory>
#include <vector>

#include "archs/dataflow/cost_model.h"
#include "archs/unit_search.h"
#include "mapping/space/mapping_problem.h"
#include "sim/memory/memory_view.h"

namespace polyarch::archs::dataflow {

// The activity of a plan's phases together.
PhaseActivity plan_activity(const DataflowPlan& plan);

class DataflowGemmMappingProblem final : public mapping::MappingProblem {
 public:
  // `op` must be a Gemm or Conv2d the fabric supports; `cache` is the unit's.
  DataflowGemmMappingProblem(DataflowParams params, ir::Op op, std::shared_ptr<MappingCache> cache,
                             sim::MemoryView memory, double clock_ghz, MappingEnergy energy = {});

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;

  GemmChoice choice(const mapping::MappingPoint& point) const;
  DataflowPlan plan(const mapping::MappingPoint& point) const;
  // The point of a tiling the fabric holds.
  mapping::MappingPoint point_of(const GemmChoice& choice) const;

 private:
  DataflowParams params_;
  ir::Op op_;
  std::shared_ptr<MappingCache> cache_;
  sim::MemoryView memory_;
  double clock_ghz_;
  MappingEnergy energy_;
  std::vector<GemmChoice> choices_;
  mapping::MappingSpace space_;
};

// The op's mapping space with its decision key; nullopt for ops without one (not GEMM-like).
std::optional<KindMappingQuery<DataflowGemmMappingProblem>> dataflow_mapping_query(
    const DataflowParams& params, const ir::Op& op, const std::shared_ptr<MappingCache>& cache,
    const sim::MemoryView& memory, double clock_ghz, const MappingEnergy& energy);

// The plan the unit runs: with `search` (polyarch run --search), a GEMM's or convolution's
// tiling is the searched one (the decision's description in mapping.search); otherwise, and for
// other ops, plan_op's own.
DataflowPlan plan_for_run(const DataflowParams& params, const ir::Op& op,
                          const std::shared_ptr<MappingCache>& cache, const sim::MemoryView& memory,
                          double clock_ghz, UnitSearch* search);

}  // namespace polyarch::archs::dataflow
