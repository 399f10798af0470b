#include "archs/pim/module.h"

#include "archs/pim/cost_model.h"
#include "archs/pim/pim_space.h"
#include "sim/memory/unit_dram.h"

namespace polyarch::archs::pim {

PimUnit::PimUnit(sim::SharedResources& resources, PimParams params,
                 std::shared_ptr<UnitSearch> decisions)
    : params_(std::move(params)),
      decisions_(std::move(decisions)),
      clock_(static_cast<double>(params_.dram.organization.clock_mhz) / 1000.0),
      dram_(sim::require_dram(resources, "pim unit '" + params_.name + "'")) {
  initiator_ = dram_.register_initiator(params_.name);
}

bool PimUnit::supports(const ir::Op& op) const { return pim_supports(params_, op); }

void PimUnit::transfer(int64_t bytes, bool is_write) {
  if (bytes <= 0) return;
  const sim::DramTicket ticket = dram_.request(initiator_, bytes, is_write);
  if (ticket.complete > sc_core::sc_time_stamp()) {
    sc_core::wait(ticket.complete - sc_core::sc_time_stamp());
  }
}

sim::OpResult PimUnit::execute(const ir::Op& op) {
  const PimPlan plan = plan_for_run(params_, op, decisions_.get());
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const int64_t start_cycle = clock_.cycles_at_or_after(start);
  transfer(plan.external_write_bytes, true);
  const int64_t stream_start = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  const sc_core::sc_time stream_end = clock_.time_of(stream_start + plan.stream_cycles);
  if (stream_end > sc_core::sc_time_stamp()) sc_core::wait(stream_end - sc_core::sc_time_stamp());
  transfer(plan.external_read_bytes, false);
  const int64_t total_cycles = clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle;

  sim::OpResult result;
  result.unit_clock_ghz = clock_.clock_ghz();
  result.compute_cycles = plan.stream_cycles;
  result.macs = plan.macs;
  result.utilization = plan.pu_utilization * static_cast<double>(plan.dram_cycles) /
                       static_cast<double>(std::max<int64_t>(total_cycles, 1));
  result.mapping_efficiency = 1.0;
  result.dram_bytes_read = plan.external_read_bytes;
  result.dram_bytes_written = plan.external_write_bytes;
  result.mapping = plan.mapping;
  result.mapping["estimate_cycles"] = plan.dram_cycles;
  result.bound = plan.bound;
  const double seconds = static_cast<double>(total_cycles) / (clock_.clock_ghz() * 1e9);
  result.roofline = {{"flops", plan.flops},
                     {"internal_bytes", plan.internal_bytes},
                     {"attained_flops_per_s", seconds > 0 ? static_cast<double>(plan.flops) / seconds : 0.0},
                     {"attained_internal_bytes_per_s",
                      seconds > 0 ? static_cast<double>(plan.internal_bytes) / seconds : 0.0},
                     {"peak_flops_per_s", 2.0 * static_cast<double>(params_.pu_count()) *
                                              static_cast<double>(params_.lanes) *
                                              params_.pu_cycles_per_dram_cycle() *
                                              clock_.clock_ghz() * 1e9},
                     // Each PU reads at most one burst per tCCD_L: the banks' internal ceiling.
                     {"internal_bytes_per_s",
                      static_cast<double>(params_.pu_count()) *
                          static_cast<double>(params_.dram.bytes_per_burst()) /
                          static_cast<double>(params_.dram.timing.tCCD_L) * clock_.clock_ghz() *
                          1e9}};
  return result;
}

sim::UnitFactory pim_unit_factory(PimParams params,
                                  std::shared_ptr<UnitSearch> decisions) {
  return sim::unit_factory<PimUnit>(params, decisions);
}

}  // namespace polyarch::archs::pim
