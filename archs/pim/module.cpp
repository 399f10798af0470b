#include "archs/pim/module.h"

#include "archs/pim/cost_model.h"
#include "archs/pim/pim_space.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "sim/memory/unit_dram.h"

namespace polyarch::archs::pim {

PimUnit::PimUnit(sim::SharedResources& resources, PimParams params,
                 std::shared_ptr<UnitSearch> decisions)
    : params_(std::move(params)),
      decisions_(std::move(decisions)),
      clock_(static_cast<double>(params_.dram.organization.clock_mhz) / 1000.0),
      dram_(sim::require_dram(resources, "pim unit '" + params_.name + "'")) {
  initiator_ = dram_.register_initiator(params_.name);
  if (params_.shares_soc_memory()) {
    if (dram_.jedec() == nullptr) {
      throw_runtime({}, "pim unit '" + params_.name + "' shares a DRAM that is not in JEDEC form");
    }
  } else {
    own_device_ = std::make_unique<sim::dram::Controller>(params_.dram, 0, 0);
  }
}

sim::DramTicket PimUnit::own_device_block(const sim::dram::PimBlock& block) {
  const int64_t arrival = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  const sim::dram::PimBlockResult result = own_device_->serve_pim(block, arrival);
  return {clock_.time_of(result.last_command_cycle + 1), clock_.time_of(result.completion_cycle)};
}

void PimUnit::stream(const PimStreamSegment& segment) {
  const sim::dram::DramConfig& dram = params_.dram;
  // A block is where the controller may turn to host traffic: the whole stream (preemption:
  // op), or one row in each of a PU's banks (row).
  const int64_t block_bursts = params_.host_waits_for_op
                                   ? std::max<int64_t>(1, segment.bursts_per_pu)
                                   : params_.banks_per_pu * dram.bursts_per_row();
  sim::dram::PimBlock block{
      .mode = params_.mode == PimMode::kPerBank ? sim::dram::PimCommandMode::kPerBank
                                                : sim::dram::PimCommandMode::kAllBank,
      .pus = static_cast<int>(params_.pus_per_pseudo_channel()),
      .banks_per_pu = static_cast<int>(params_.banks_per_pu),
      .total_bursts = segment.bursts_per_pu,
      .compute_cycles_per_burst = segment.compute_cycles_per_burst,
      .base_row = next_base_row_};
  sc_core::sc_time complete = sc_core::sc_time_stamp();
  for (int64_t first = 0; first < segment.bursts_per_pu; first += block_bursts) {
    block.first_burst = first;
    block.bursts = std::min(block_bursts, segment.bursts_per_pu - first);
    const sim::DramTicket ticket =
        own_device_ ? own_device_block(block) : dram_.pim_request(initiator_, block);
    complete = std::max(complete, ticket.complete);
    // The next block's commands follow once this block's have left.
    if (ticket.sent > sc_core::sc_time_stamp()) wait(ticket.sent - sc_core::sc_time_stamp());
  }
  if (complete > sc_core::sc_time_stamp()) wait(complete - sc_core::sc_time_stamp());
  const int64_t rows = ceil_div(segment.bursts_per_pu, params_.banks_per_pu * dram.bursts_per_row());
  next_base_row_ = (next_base_row_ + rows) % dram.organization.rows;
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
  for (const PimStreamSegment& segment : plan.segments) stream(segment);
  const int64_t stream_end = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  const int64_t stream_cycles = stream_end - stream_start;
  transfer(plan.external_read_bytes, false);
  const int64_t total_cycles = clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle;
  const int64_t io_cycles = total_cycles - stream_cycles;

  sim::OpResult result;
  result.unit_clock_ghz = clock_.clock_ghz();
  result.compute_cycles = stream_cycles;
  result.macs = plan.macs;
  result.utilization = plan.pu_utilization * static_cast<double>(plan.dram_cycles) /
                       static_cast<double>(std::max<int64_t>(total_cycles, 1));
  result.mapping_efficiency = 1.0;
  result.converted_elements = plan.converted_elements;
  result.conversion_cycles = plan.conversion_cycles;
  if (plan.converted_elements > 0) result.dtype = std::string(ir::dtype_name(params_.dtype));
  result.dram_bytes_read = plan.external_read_bytes;
  result.dram_bytes_written = plan.external_write_bytes;
  result.mapping = plan.mapping;
  result.mapping["estimate_cycles"] = plan.dram_cycles;
  // What the run spent most time on: the transfers, or the streams (paced by the PUs'
  // arithmetic where their compute per burst exceeds tCCD_L, else by the banks).
  result.bound = io_cycles > stream_cycles ? "io" : (plan.bound == "io" ? "dram" : plan.bound);
  const double seconds = static_cast<double>(total_cycles) / (clock_.clock_ghz() * 1e9);
  result.roofline = {
      {"flops", plan.flops},
      {"internal_bytes", plan.internal_bytes},
      {"attained_flops_per_s", seconds > 0 ? static_cast<double>(plan.flops) / seconds : 0.0},
      {"attained_internal_bytes_per_s",
       seconds > 0 ? static_cast<double>(plan.internal_bytes) / seconds : 0.0},
      // A SIMD lane retires a MAC (2 FLOPs) per cycle, a programmable core at most
      // one arithmetic instruction.
      {"peak_flops_per_s", (params_.core ? 1.0 : 2.0) * static_cast<double>(params_.pu_count()) *
                               static_cast<double>(params_.lanes) *
                               params_.pu_cycles_per_dram_cycle() * clock_.clock_ghz() * 1e9},
      // Each PU reads at most one burst per tCCD_L: the banks' internal ceiling.
      {"internal_bytes_per_s", static_cast<double>(params_.pu_count()) *
                                   static_cast<double>(params_.dram.bytes_per_burst()) /
                                   static_cast<double>(params_.dram.timing.tCCD_L) *
                                   clock_.clock_ghz() * 1e9}};
  return result;
}

sim::UnitFactory pim_unit_factory(PimParams params,
                                  std::shared_ptr<UnitSearch> decisions) {
  return sim::unit_factory<PimUnit>(params, decisions);
}

}  // namespace polyarch::archs::pim
