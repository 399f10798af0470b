#pragma once
// The SystemC model of a `kind: crossbar` unit. Each op runs as its schedule (op_schedule.h) on
// the shared loader / compute / drain tile runner (sim/pipeline/tile_runner.h) with two buffer
// slots: wave inputs stream in from the shared DRAM channel and outputs drain to it while the
// arrays compute, reprogramming passes fetch their weights row by row, and the arrays' own
// timing (DAC slices, reads, the tiles' shared ADC pools, shift-and-add) comes from the array
// pipeline (array_pipeline.h). DRAM contention with the other units shows; the op's bound is
// op_bound.h's rule on the simulated busy times.
#include <memory>
#include <optional>
#include <string>

#include "archs/crossbar/array_allocation.h"
#include "archs/crossbar/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_channel.h"
#include "sim/pipeline/tile_runner.h"

namespace polyarch::archs::crossbar {

struct CrossbarUnitOptions {
  // Skip identical waves in steady state (sim/pipeline/tile_runner.h); off, every wave is
  // simulated: the reference the fast-forward is tested against.
  bool fast_forward = true;
  // Runs every op with this many weight copies (clamped to what fits on the whole unit, the
  // program's allocation aside) instead of the unit's own or the searched choice: for comparing
  // replications by simulation.
  std::optional<int64_t> replicas;
};

class CrossbarUnit : public sim::UnitModel {
 public:
  // `decisions`: the run's searched mappings (polyarch run --search); null: plan_op's own.
  CrossbarUnit(sim::SharedResources& resources, CrossbarParams params, double clock_ghz,
               std::shared_ptr<UnitSearch> decisions = nullptr, CrossbarUnitOptions options = {});
  ~CrossbarUnit() override;

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "crossbar"; }
  double clock_ghz() const override { return clock_.clock_ghz(); }
  bool supports(const ir::Op& op) const override;
  sim::OpResult execute(const ir::Op& op) override;
  // Shares the arrays among the program's ops (array_allocation.h).
  void prepare(const std::vector<const ir::Op*>& ops) override;

 private:
  sim::DramView memory() const;

  CrossbarParams params_;
  ArrayAllocation allocation_;
  std::shared_ptr<UnitSearch> decisions_;
  CrossbarUnitOptions options_;
  sim::UnitClock clock_;
  sim::DramChannel& dram_;
  std::unique_ptr<sim::TileRunner> tile_runner_;
};

sim::UnitFactory crossbar_unit_factory(CrossbarParams params, double soc_clock_ghz,
                                       std::shared_ptr<UnitSearch> decisions = nullptr,
                                       CrossbarUnitOptions options = {});

}  // namespace polyarch::archs::crossbar
