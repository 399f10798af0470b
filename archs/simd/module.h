#pragma once
// The SystemC model of a `kind: simd` unit: plans each op (cost_model.h) and streams the plan's
// steps through a loader / compute / drain pipeline against the shared DRAM, double-buffered as
// a GPU's multi-stage operand staging is, so DRAM stalls and contention with other units come
// out of the simulation. The steps run through the tile runner the systolic unit uses too
// (sim/pipeline/tile_runner.h): a step is a tile with cycles and DRAM traffic, identical steps
// are fast-forwarded.
#include <memory>
#include <string>

#include "archs/simd/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/kernel/unit_model.h"
#include "sim/pipeline/tile_runner.h"

namespace polyarch::archs::simd {

struct SimdUnitOptions {
  bool fast_forward = true;  // skip identical steps in steady state (see tile_runner.h)
};

class SimdUnit : public sim::UnitModel {
 public:
  // `search`: the run's searched GEMM tilings (polyarch run --search); null: the mapper's own.
  SimdUnit(sim::SharedResources& resources, SimdParams params, double clock_ghz,
           SimdUnitOptions options = {}, std::shared_ptr<UnitSearch> search = nullptr);
  ~SimdUnit() override;

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "simd"; }
  double clock_ghz() const override { return clock_.clock_ghz(); }
  bool supports(const ir::Op& op) const override;
  sim::OpResult execute(const ir::Op& op) override;

 private:
  SimdParams params_;
  sim::UnitClock clock_;
  SimdUnitOptions options_;
  std::shared_ptr<UnitSearch> search_;
  sim::DramChannel& dram_;
  std::unique_ptr<sim::TileRunner> tile_runner_;
};

sim::UnitFactory simd_unit_factory(SimdParams params, double soc_clock_ghz,
                                   SimdUnitOptions options = {},
                                   std::shared_ptr<UnitSearch> search = nullptr);

}  // namespace polyarch::archs::simd
