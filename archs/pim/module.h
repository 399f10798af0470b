#pragma once
// The SystemC model of a `kind: pim` unit: for each op, the host broadcasts the inputs through
// the shared DRAM channel (contending with every other unit), the PUs stream their banks for
// the planned cycles (cost_model.h), and the host reads the results back through the channel.
// The unit's clock is the DRAM command clock.
#include <memory>
#include <string>

#include "archs/pim/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_channel.h"

namespace polyarch::archs::pim {

class PimUnit : public sim::UnitModel {
 public:
  // `decisions`: the run's searched mappings (polyarch run --search); null: plan_op's own.
  PimUnit(sim::SharedResources& resources, PimParams params,
          std::shared_ptr<UnitSearch> decisions = nullptr);

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "pim"; }
  double clock_ghz() const override { return clock_.clock_ghz(); }
  bool supports(const ir::Op& op) const override;
  sim::OpResult execute(const ir::Op& op) override;

 private:
  void transfer(int64_t bytes, bool is_write);

  PimParams params_;
  std::shared_ptr<UnitSearch> decisions_;
  sim::UnitClock clock_;
  sim::DramChannel& dram_;
  int initiator_ = 0;
};

sim::UnitFactory pim_unit_factory(PimParams params,
                                  std::shared_ptr<UnitSearch> decisions = nullptr);

}  // namespace polyarch::archs::pim
