#pragma once
// The SystemC model of a `kind: mimd` unit. Each step of the op's plan (mapper.h) issues every
// active core's operand load to the shared DRAM (requests queue with every other unit's) and
// carries it over the unit's NoC from the core's memory port; a core computes a step once its
// operands have arrived and its previous step is done, and sends its results back the same
// way. Loads of the next step go out as soon as the first core starts the current one (double
// buffering), so NoC link contention and DRAM queueing set the pace when compute does not. Each
// core's loads and stores also pass through its window of outstanding line misses, a server of
// plan.core_miss_bytes_per_cycle (Little's law), which paces a core that streams alone.
#include <memory>
#include <string>
#include <vector>

#include "archs/mimd/mapper.h"
#include "archs/mimd/params.h"
#include "archs/unit_search.h"
#include "sim/kernel/unit_clock.h"
#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_channel.h"
#include "sim/noc/noc.h"

namespace polyarch::archs::mimd {

class MimdUnit : public sim::UnitModel {
 public:
  // `decisions`: the run's searched mappings (polyarch run --search); null: plan_op's own.
  MimdUnit(sim::SharedResources& resources, MimdParams params, double clock_ghz,
           std::shared_ptr<UnitSearch> decisions = nullptr);

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "mimd"; }
  double clock_ghz() const override { return clock_.clock_ghz(); }
  bool supports(const ir::Op& op) const override;
  sim::OpResult execute(const ir::Op& op) override;

 private:
  struct PendingStore {
    int64_t core = 0;
    int64_t at_port_cycle = 0;
    int64_t bytes = 0;
  };

  void wait_until_cycle(int64_t cycle);
  // Issues the stores that reached their memory port by `cycle` (all of them when `all`).
  void flush_stores(int64_t cycle, bool all);
  // One step on every active core; returns the earliest cycle a core started it.
  int64_t run_step(const MimdPlan& plan, const CoreStep& step);
  // Puts `bytes` of `core` through its miss window from `from_cycle` on; returns the cycle the
  // last of them is back (`from_cycle` when the window is unbounded).
  int64_t reserve_miss_window(int64_t core, int64_t from_cycle, int64_t bytes);

  MimdParams params_;
  std::shared_ptr<UnitSearch> decisions_;
  sim::UnitClock clock_;
  sim::DramChannel& dram_;
  int initiator_ = 0;
  sim::Noc noc_;
  std::vector<int64_t> core_port_node_;  // the memory-port node each core loads through
  std::vector<int64_t> core_free_;       // cycle each core finishes its current step
  std::vector<double> miss_window_free_;  // cycle each core's miss window has room again
  double core_miss_bytes_per_cycle_ = 0;  // the op's plan.core_miss_bytes_per_cycle
  int64_t miss_window_done_ = 0;          // the last cycle a store's window use ends
  std::vector<PendingStore> pending_stores_;
  sim::DramTicket last_store_;
  bool stored_ = false;
};

sim::UnitFactory mimd_unit_factory(MimdParams params, double soc_clock_ghz,
                                   std::shared_ptr<UnitSearch> decisions = nullptr);

}  // namespace polyarch::archs::mimd
