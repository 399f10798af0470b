#include "archs/mimd/module.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "archs/mimd/activity.h"
#include "archs/mimd/mimd_space.h"
#include "archs/mimd/op_bound.h"
#include "archs/planned_op_result.h"
#include "base/error.h"
#include "sim/memory/dram_channel.h"
#include "sim/memory/unit_dram.h"
#include "sim/roofline.h"

namespace polyarch::archs::mimd {

MimdUnit::MimdUnit(sim::SharedResources& resources, MimdParams params, double clock_ghz,
                   std::shared_ptr<UnitSearch> decisions)
    : params_(std::move(params)),
      decisions_(std::move(decisions)),
      clock_(clock_ghz, resources.clock_schedule),
      dram_(sim::require_dram(resources, "mimd unit '" + params_.name + "'")),
      noc_(params_.noc) {
  initiator_ = dram_.register_initiator(params_.name);
  core_port_node_.resize(static_cast<std::size_t>(params_.count));
  for (int64_t core = 0; core < params_.count; ++core) {
    int64_t best = params_.port_node(0);
    for (int64_t port = 1; port < params_.memory_ports; ++port) {
      const int64_t node = params_.port_node(port);
      if (noc_.hops(node, core) < noc_.hops(best, core)) best = node;
    }
    core_port_node_[static_cast<std::size_t>(core)] = best;
  }
}

bool MimdUnit::supports(const ir::Op& op) const { return mimd_supports(op); }

void MimdUnit::wait_until_cycle(int64_t cycle) {
  const sc_core::sc_time target = clock_.time_of(cycle);
  if (target > sc_core::sc_time_stamp()) sc_core::wait(target - sc_core::sc_time_stamp());
}

int64_t MimdUnit::reserve_miss_window(int64_t core, int64_t from_cycle, int64_t bytes) {
  if (core_miss_bytes_per_cycle_ <= 0) return from_cycle;
  double& free = miss_window_free_[static_cast<std::size_t>(core)];
  free = std::max(free, static_cast<double>(from_cycle)) +
         static_cast<double>(bytes) / core_miss_bytes_per_cycle_;
  return static_cast<int64_t>(std::ceil(free));
}

void MimdUnit::flush_stores(int64_t cycle, bool all) {
  std::vector<PendingStore> later;
  for (const PendingStore& store : pending_stores_) {
    if (all || store.at_port_cycle <= cycle) {
      last_store_ = dram_.request(initiator_, store.bytes, true);
      stored_ = true;
      miss_window_done_ = std::max(
          miss_window_done_, reserve_miss_window(store.core, store.at_port_cycle, store.bytes));
    } else {
      later.push_back(store);
    }
  }
  pending_stores_ = std::move(later);
}

int64_t MimdUnit::run_step(const MimdPlan& plan, const CoreStep& step) {
  int64_t first_start = std::numeric_limits<int64_t>::max();
  for (int64_t core = 0; core < plan.active_cores; ++core) {
    const auto index = static_cast<std::size_t>(core);
    const int64_t port = core_port_node_[index];
    int64_t ready = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
    if (step.load_bytes > 0) {
      const sim::DramTicket ticket = dram_.request(initiator_, step.load_bytes, false);
      const int64_t issued = ready;
      ready = noc_.transfer(port, core, step.load_bytes, clock_.cycles_at_or_after(ticket.complete));
      ready = std::max(ready, reserve_miss_window(core, issued, step.load_bytes));
    }
    const int64_t start = std::max(ready, core_free_[index]);
    core_free_[index] = start + step.compute_cycles;
    first_start = std::min(first_start, start);
    if (step.store_bytes > 0) {
      pending_stores_.push_back(
          {core, noc_.transfer(core, port, step.store_bytes, core_free_[index]), step.store_bytes});
    }
  }
  return first_start;
}

sim::OpResult MimdUnit::execute(const ir::Op& op) {
  const MimdMemoryView memory = sim::memory_view(dram_, clock_.clock_ghz());
  const MimdPlan plan = plan_for_run(params_, op, memory, clock_.clock_ghz(), decisions_.get());
  const int64_t start_cycle = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  noc_.reset();
  pending_stores_.clear();
  stored_ = false;
  core_miss_bytes_per_cycle_ = plan.core_miss_bytes_per_cycle;
  miss_window_done_ = 0;
  int64_t cycle = start_cycle + plan.dispatch_cycles;
  wait_until_cycle(cycle);
  core_free_.assign(static_cast<std::size_t>(params_.count), cycle);
  miss_window_free_.assign(static_cast<std::size_t>(params_.count), static_cast<double>(cycle));
  for (int64_t pass = 0; pass < plan.repeat; ++pass) {
    for (const CoreStepRun& run : plan.runs) {
      for (int64_t i = 0; i < run.count; ++i) {
        flush_stores(cycle, false);
        // The next step's loads go out once the first core has started this one.
        cycle = std::max(cycle, run_step(plan, run.step));
        wait_until_cycle(cycle);
      }
    }
  }
  if (!plan.runs.empty()) {
    const int64_t done = *std::max_element(core_free_.begin(), core_free_.end());
    wait_until_cycle(done);
    flush_stores(done, true);
    if (stored_ && last_store_.complete > sc_core::sc_time_stamp()) {
      sc_core::wait(last_store_.complete - sc_core::sc_time_stamp());
    }
    wait_until_cycle(miss_window_done_);
    wait_until_cycle(clock_.cycles_at_or_after(sc_core::sc_time_stamp()) + plan.barrier_cycles);
  }
  const int64_t total_cycles = clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle;

  sim::OpResult result = planned_op_result(plan, total_cycles, clock_.clock_ghz());
  result.mapping["steps_per_core"] = plan.step_count();
  result.mapping["estimate_cycles"] = estimate_cycles(params_, plan, memory);
  record_activity({plan.flops, static_cast<double>(noc_.total_link_bytes())}, result.mapping);
  const double dram_cycles =
      memory.dram_bytes_per_cycle > 0
          ? static_cast<double>(plan.dram_read_bytes + plan.dram_write_bytes) /
                memory.dram_bytes_per_cycle
          : 0.0;
  int64_t busiest_link_bytes = 0;
  for (int64_t link = 0; link < noc_.link_count(); ++link) {
    busiest_link_bytes = std::max(busiest_link_bytes, noc_.link_bytes(link));
  }
  result.bound = std::string(
      mapping::bound_name(mimd_bound(static_cast<double>(plan.compute_cycles), dram_cycles,
                                     static_cast<double>(busiest_link_bytes) /
                                         static_cast<double>(params_.noc.link_bytes_per_cycle),
                                     plan.miss_window_cycles())));
  const double cycles_per_second = clock_.clock_ghz() * 1e9;
  result.roofline = sim::roofline_json(
      planned_roofline_point(plan, memory, total_cycles, clock_.clock_ghz()));
  result.roofline["noc_port_bytes_per_s"] = static_cast<double>(params_.memory_ports) *
                                            static_cast<double>(params_.noc.link_bytes_per_cycle) *
                                            cycles_per_second;
  return result;
}

sim::UnitFactory mimd_unit_factory(MimdParams params, double soc_clock_ghz,
                                   std::shared_ptr<UnitSearch> decisions) {
  return sim::unit_factory<MimdUnit>(params, params.clock_ghz.value_or(soc_clock_ghz), decisions);
}

}  // namespace polyarch::archs::mimd
