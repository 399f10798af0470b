#pragma once
// The SystemC model of a `kind: pim` unit: for each op, the host broadcasts the inputs through
// the shared DRAM channel (contending with every other unit), the PUs stream their banks, and
// the host reads the results back through the channel. The streams are the plan's segments
// (cost_model.h), issued command by command (sim/memory/dram/pim_sequencer.h) in blocks of one
// row per bank of a PU: on the SoC's own DRAM controllers with `memory: shared` (where host
// traffic takes turns with the blocks on the same banks), else on a controller of the PUs' own
// device (one pseudo-channel stands for all: they run the same work in lockstep). The plan's
// cycle count is the separate estimate; it is not waited out here. The unit's clock is the
// DRAM command clock.
#include <memory>
#include <string>

#include "archs/pim/cost_model.h"
#include "archs/pim/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/kernel/unit_model.h"
#include "sim/memory/dram/controller.h"
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
  // Streams one segment of the plan block by block; returns when its last burst is computed on.
  void stream(const PimStreamSegment& segment);
  // One block on the PUs' own device: when its last command left and when it is complete.
  sim::DramTicket own_device_block(const sim::dram::PimBlock& block);

  PimParams params_;
  std::shared_ptr<UnitSearch> decisions_;
  sim::UnitClock clock_;
  sim::DramChannel& dram_;
  int initiator_ = 0;
  // The PUs' own device, one pseudo-channel of it (without `memory: shared`).
  std::unique_ptr<sim::dram::Controller> own_device_;
  int64_t next_base_row_ = 0;  // each stream's rows follow the previous one's
};

sim::UnitFactory pim_unit_factory(PimParams params,
                                  std::shared_ptr<UnitSearch> decisions = nullptr);

}  // namespace polyarch::archs::pim
