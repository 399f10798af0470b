#pragma once
// The SystemC model of a `kind: crossbar` unit: each op reads its input activations through the
// shared DRAM channel, runs its MVMs on the arrays for the planned time (cost_model.h), and
// writes its outputs back, so DRAM contention with the digital units shows.
#include <memory>
#include <string>

#include "archs/crossbar/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_channel.h"

namespace polyarch::archs::crossbar {

class CrossbarUnit : public sim::UnitModel {
 public:
  // `decisions`: the run's searched mappings (polyarch run --search); null: plan_op's own.
  CrossbarUnit(sim::SharedResources& resources, CrossbarParams params, double clock_ghz,
               std::shared_ptr<UnitSearch> decisions = nullptr);

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "crossbar"; }
  double clock_ghz() const override { return clock_.clock_ghz(); }
  bool supports(const ir::Op& op) const override;
  sim::OpResult execute(const ir::Op& op) override;

 private:
  void transfer(int64_t bytes, bool is_write);

  CrossbarParams params_;
  std::shared_ptr<UnitSearch> decisions_;
  sim::UnitClock clock_;
  sim::DramChannel& dram_;
  int initiator_ = 0;
};

sim::UnitFactory crossbar_unit_factory(CrossbarParams params, double soc_clock_ghz,
                                       std::shared_ptr<UnitSearch> decisions = nullptr);

}  // namespace polyarch::archs::crossbar
