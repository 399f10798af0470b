#pragma once
// The systolic kind's mapping space for one GEMM or convolution, plugged into mapping search
// (mapping/space/mapping_problem.h). Dimensions:
//   dataflow         os | ws | is                     (which operand stays in the PEs)
//   ifmap_eighths    1..6  share of the unit's total SRAM given to the ifmap buffer
//   filter_eighths   1..6  share given to the filter buffer; the ofmap gets the rest (>= 1/8)
//   double_buffered  0 | 1
//   temporal_splits  1, 2, 4, ... 32: the streamed dimension T (ws: M, is: N) is cut into that
//                    many tiles run one after another, each a smaller GEMM whose slices fit the
//                    buffers (os would split the reduction K and is left at 1; a convolution,
//                    which no smaller op expresses, is not split)
// Valid when one fold's input slices fit their buffer slot (capacity, halved when double
// buffered). The cost is the fold plan of cost_model.h timed by plan_timing.h, energy by the
// kind's energy model (energy.h) from the plan's counts; tests hold it to the SystemC model.
#include <array>
#include <optional>
#include <vector>

#include "archs/systolic/params.h"
#include "archs/systolic/plan_timing.h"
#include "compiler/ir/op.h"
#include "mapping/space/mapping_problem.h"
#include "sim/energy/tech_table.h"

namespace polyarch::archs::systolic {

struct SystolicMappingEnv {
  double clock_ghz = 1.0;  // the unit's clock
  sim::DramView dram;
  const sim::TechTable* tech = nullptr;  // null: energy is reported as 0
  std::string dram_kind = "ddr4";
};

class SystolicMappingProblem final : public mapping::MappingProblem {
 public:
  // `op` must be a Gemm or Conv2d the unit supports.
  SystolicMappingProblem(SystolicParams unit, const ir::Op& op, SystolicMappingEnv env);

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;
  double latency_lower_bound_s(const mapping::MappingPoint& point) const override;
  std::vector<double> features(const mapping::MappingPoint& point) const override;

  // The unit as the mapping configures it: dataflow, buffer partition, double buffering.
  SystolicParams configured_params(const mapping::MappingPoint& point) const;
  // The op as the mapping runs it, as ops the SystemC model executes in order: the op itself,
  // or its temporal tiles (a split is valid for GEMMs only).
  std::vector<ir::Op> tile_ops(const mapping::MappingPoint& point) const;
  // The point closest to the unit's own configuration (its dataflow, no split).
  mapping::MappingPoint unit_point() const;

 private:
  struct Tiling {
    ir::GemmView tile;       // one temporal tile
    int64_t full_tiles = 1;  // tiles of that size
    ir::GemmView last;       // the smaller remainder tile
    bool has_last = false;
  };
  struct EnergyRates {  // joules per count, for one (dataflow, partition, buffering)
    double per_mac = 0, per_ifmap = 0, per_filter = 0, per_ofmap_read = 0, per_ofmap_write = 0;
    double per_dram_byte = 0, leakage_w = 0;
  };
  Dataflow dataflow_of(const mapping::MappingPoint& point) const;
  Tiling tiling(const mapping::MappingPoint& point) const;
  const EnergyRates& energy_rates(const mapping::MappingPoint& point) const;

  SystolicParams unit_;
  ir::GemmView view_;
  ir::DType element_dtype_;
  std::string op_name_;
  ir::Op op_;
  SystolicMappingEnv env_;
  int64_t total_kib_ = 0;
  mapping::MappingSpace space_;
  // Lazily filled: index dataflow * 72 + (ifmap-1) * 12 + (filter-1) * 2 + double_buffered.
  mutable std::vector<std::optional<EnergyRates>> energy_rates_;
};

}  // namespace polyarch::archs::systolic
