#include "archs/crossbar/module.h"

#include <cmath>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/crossbar_space.h"
#include "sim/memory/unit_dram.h"
#include "sim/roofline.h"

namespace polyarch::archs::crossbar {

CrossbarUnit::CrossbarUnit(sim::SharedResources& resources, CrossbarParams params, double clock_ghz,
                           std::shared_ptr<UnitSearch> decisions)
    : params_(std::move(params)),
      decisions_(std::move(decisions)),
      clock_(clock_ghz, resources.clock_schedule),
      dram_(sim::require_dram(resources, "crossbar unit '" + params_.name + "'")) {
  initiator_ = dram_.register_initiator(params_.name);
}

bool CrossbarUnit::supports(const ir::Op& op) const { return crossbar_supports(op); }

void CrossbarUnit::transfer(int64_t bytes, bool is_write) {
  if (bytes <= 0) return;
  const sim::DramTicket ticket = dram_.request(initiator_, bytes, is_write);
  if (ticket.complete > sc_core::sc_time_stamp()) {
    sc_core::wait(ticket.complete - sc_core::sc_time_stamp());
  }
}

sim::OpResult CrossbarUnit::execute(const ir::Op& op) {
  const double clock_hz = clock_.clock_ghz() * 1e9;
  const sim::MemoryView view = sim::memory_view(dram_, clock_.clock_ghz());
  const sim::DramView memory{view.dram_bytes_per_cycle * clock_hz,
                             static_cast<double>(view.dram_latency_cycles) / clock_hz};
  const CrossbarPlan plan = plan_for_run(params_, op, memory, decisions_.get());
  const int64_t start_cycle = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  transfer(plan.dram_read_bytes, false);
  const auto compute_cycles =
      static_cast<int64_t>(std::ceil(plan.compute_ns * clock_.clock_ghz()));
  const int64_t compute_start = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  const sc_core::sc_time compute_end = clock_.time_of(compute_start + compute_cycles);
  if (compute_end > sc_core::sc_time_stamp()) sc_core::wait(compute_end - sc_core::sc_time_stamp());
  transfer(plan.dram_write_bytes, true);
  const int64_t total_cycles = clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle;

  sim::OpResult result;
  result.unit_clock_ghz = clock_.clock_ghz();
  result.compute_cycles = compute_cycles;
  result.macs = plan.macs;
  // Array utilisation: the share of all arrays the op's weights (and replicas) occupy.
  result.utilization = static_cast<double>(plan.arrays_needed * plan.replicas) /
                       static_cast<double>(params_.array_count() * plan.passes);
  result.mapping_efficiency = result.utilization;
  result.dram_bytes_read = plan.dram_read_bytes;
  result.dram_bytes_written = plan.dram_write_bytes;
  result.mapping = plan.mapping;
  // As the search's cost model classifies it: reading and writing DRAM against the arrays' time.
  const int64_t transfer_cycles = total_cycles - compute_cycles;
  result.bound = plan.program_ns > 0               ? "reprogramming"
                 : transfer_cycles > compute_cycles ? "dram"
                                                    : "compute";
  // Roofline: the ceiling is every array streaming MVMs of full arrays (rows x cols / cells per
  // weight MACs each), one input slice per slice time.
  const double full_array_macs = static_cast<double>(params_.rows) *
                                 static_cast<double>(params_.cols) /
                                 static_cast<double>(params_.cells_per_weight());
  sim::RooflinePoint point;
  point.flops = 2 * plan.macs;
  point.dram_bytes = plan.dram_read_bytes + plan.dram_write_bytes;
  point.seconds = static_cast<double>(total_cycles) / clock_hz;
  point.peak_flops_per_s = 2.0 * static_cast<double>(params_.array_count()) * full_array_macs /
                           (static_cast<double>(params_.input_slices()) * params_.slice_ns() * 1e-9);
  if (view.dram_bytes_per_cycle > 0) point.dram_bytes_per_s = view.dram_bytes_per_cycle * clock_hz;
  result.roofline = sim::roofline_json(point);
  return result;
}

sim::UnitFactory crossbar_unit_factory(CrossbarParams params, double soc_clock_ghz,
                                       std::shared_ptr<UnitSearch> decisions) {
  return sim::unit_factory<CrossbarUnit>(params, params.clock_ghz.value_or(soc_clock_ghz),
                                         decisions);
}

}  // namespace polyarch::archs::crossbar
