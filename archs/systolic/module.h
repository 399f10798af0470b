#pragma once
// The SystemC model of a `kind: systolic` unit: executes each op's fold plan (cost_model.h)
// as tiles of the shared loader / compute / drain tile runner (sim/pipeline/tile_runner.h,
// fold_tiles.h) against the shared DRAM, so
// memory stalls and contention with other units come out of the simulation.
#include <memory>
#include <string>

#include "archs/systolic/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/memory/memory_view.h"
#include "sim/kernel/unit_model.h"
#include "sim/pipeline/tile_runner.h"

namespace polyarch::archs::systolic {

struct SystolicUnitOptions {
  // Skip identical folds in steady state (see sim/pipeline/tile_runner.h). Off, every fold is
  // simulated: the reference the fast-forward is tested against.
  bool fast_forward = true;
};

class SystolicUnit : public sim::UnitModel {
 public:
  // `clock_ghz` is the unit's clock: params.clock_ghz, or the SoC clock when that is unset.
  // `search`: the run's searched mappings (polyarch run --search); null: the unit's own
  // configuration for every op.
  SystolicUnit(sim::SharedResources& resources, SystolicParams params, double clock_ghz,
               SystolicUnitOptions options = {}, std::shared_ptr<UnitSearch> search = nullptr);
  ~SystolicUnit() override;

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "systolic"; }
  double clock_ghz() const override { return clock_.clock_ghz(); }
  bool supports(const ir::Op& op) const override;
  sim::OpResult execute(const ir::Op& op) override;

 private:
  // The op's bound (archs/systolic/op_bound.h, the mapper's rule on the simulated counts) and
  // roofline coordinates.
  void describe_limits(const ir::Op& op, const SystolicParams& run_params,
                       const sim::MemoryView& memory, int64_t total_cycles,
                       sim::OpResult& result) const;
  SystolicParams params_;
  sim::UnitClock clock_;
  SystolicUnitOptions options_;
  std::shared_ptr<UnitSearch> search_;
  sim::DramChannel* dram_ = nullptr;
  std::unique_ptr<sim::TileRunner> tile_runner_;
};

// The factory the kernel calls during elaboration; the unit's clock is params.clock_ghz or, if
// unset, `soc_clock_ghz`.
sim::UnitFactory systolic_unit_factory(SystolicParams params, double soc_clock_ghz,
                                       SystolicUnitOptions options = {},
                                       std::shared_ptr<UnitSearch> search = nullptr);

}  // namespace polyarch::archs::systolic
