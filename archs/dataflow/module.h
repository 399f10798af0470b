#pragma once
// The SystemC model of a `kind: dataflow` unit. Each op is planned (cost_model.h); each of its
// phases first makes its configuration current — a context switch when one of the `contexts`
// resident configurations matches, else a configuration load that evicts the least recently
// used one — and then streams its steps through the double-buffered load / compute / store
// tile runner of sim/pipeline/tile_runner.h against the shared DRAM, so DRAM bandwidth and
// contention with other units come out of the simulation.
#include <cstdint>
#include <list>
#include <memory>
#include <string>

#include "archs/dataflow/cost_model.h"
#include "archs/dataflow/mapper.h"
#include "archs/dataflow/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/kernel/unit_model.h"
#include "sim/pipeline/tile_runner.h"

namespace polyarch::archs::dataflow {

class DataflowUnit : public sim::UnitModel {
 public:
  // `decisions`: the run's searched mappings (polyarch run --search); null: plan_op's own.
  DataflowUnit(sim::SharedResources& resources, DataflowParams params, double clock_ghz,
               std::shared_ptr<MappingCache> cache,
               std::shared_ptr<UnitSearch> decisions = nullptr);
  ~DataflowUnit() override;

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "dataflow"; }
  double clock_ghz() const override { return clock_.clock_ghz(); }
  bool supports(const ir::Op& op) const override;
  sim::OpResult execute(const ir::Op& op) override;

 private:
  // Cycles to make `phase`'s configuration current; updates the resident contexts.
  int64_t configure(const LoopPhase& phase, bool& loaded);

  DataflowParams params_;
  sim::UnitClock clock_;
  sim::DramChannel& dram_;
  std::shared_ptr<MappingCache> cache_;
  std::shared_ptr<UnitSearch> decisions_;
  std::unique_ptr<sim::TileRunner> tile_runner_;
  std::list<const MappedLoop*> resident_;  // most recently used first
};

sim::UnitFactory dataflow_unit_factory(DataflowParams params, double soc_clock_ghz,
                                       std::shared_ptr<MappingCache> cache,
                                       std::shared_ptr<UnitSearch> decisions = nullptr);

}  // namespace polyarch::archs::dataflow
