#include "archs/crossbar/module.h"

#include <cctype>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/crossbar_space.h"
#include "archs/crossbar/op_bound.h"
#include "archs/crossbar/op_schedule.h"
#include "sim/memory/unit_dram.h"
#include "sim/roofline.h"

namespace polyarch::archs::crossbar {

namespace {

// SystemC module names may not contain its hierarchy separator or spaces.
std::string module_name(const std::string& unit_name) {
  std::string name = "crossbar_";
  for (char c : unit_name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

bool has_tiles(const sim::TilePlan& plan) {
  for (const sim::TileBlock& block : plan.blocks) {
    for (const sim::TileRun& run : block.runs) {
      if (run.count > 0) return true;
    }
  }
  return false;
}

}  // namespace

CrossbarUnit::CrossbarUnit(sim::SharedResources& resources, CrossbarParams params, double clock_ghz,
                           std::shared_ptr<UnitSearch> decisions, CrossbarUnitOptions options)
    : params_(std::move(params)),
      decisions_(std::move(decisions)),
      options_(options),
      clock_(clock_ghz, resources.clock_schedule),
      dram_(sim::require_dram(resources, "crossbar unit '" + params_.name + "'")) {
  const int initiator = dram_.register_initiator(params_.name);
  // Two slots: the next wave's inputs arrive and the last wave's outputs leave while the
  // arrays compute (double-buffered input and output buffers).
  tile_runner_ = std::make_unique<sim::TileRunner>(module_name(params_.name).c_str(), dram_,
                                                   initiator, clock_, 2, options_.fast_forward);
}

CrossbarUnit::~CrossbarUnit() = default;

bool CrossbarUnit::supports(const ir::Op& op) const { return crossbar_supports(op); }

sim::DramView CrossbarUnit::memory() const {
  const double clock_hz = clock_.clock_ghz() * 1e9;
  const sim::MemoryView view = sim::memory_view(dram_, clock_.clock_ghz());
  return {view.dram_bytes_per_cycle * clock_hz,
          static_cast<double>(view.dram_latency_cycles) / clock_hz};
}

void CrossbarUnit::prepare(const std::vector<const ir::Op*>& ops) {
  allocation_ = allocate_arrays(params_, ops, memory());
}

sim::OpResult CrossbarUnit::execute(const ir::Op& op) {
  const double clock_hz = clock_.clock_ghz() * 1e9;
  const sim::DramView memory = this->memory();
  const ArrayBudget budget = allocation_.budget_of(op.name);
  const CrossbarPlan plan = options_.replicas
                                ? plan_op(params_, op, options_.replicas)
                                : plan_for_run(params_, op, memory, decisions_.get(), budget);
  const CrossbarSchedule schedule = schedule_op(params_, plan, clock_.clock_ghz());
  const int64_t start_cycle = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  sim::TileRunStats stats;
  for (const sim::TilePlan& tiles : schedule.plans) {
    if (!has_tiles(tiles)) continue;
    const sim::TileRunStats run = tile_runner_->run(tiles, false);
    stats.tiles_simulated += run.tiles_simulated;
    stats.tiles_skipped += run.tiles_skipped;
    stats.skips += run.skips;
  }
  sim::OpResult result;
  result.unit_clock_ghz = clock_.clock_ghz();
  result.compute_cycles = schedule.compute_cycles;
  result.macs = plan.macs;
  // Array utilisation: the share of all arrays the op's weights (and replicas) occupy.
  result.utilization = static_cast<double>(plan.arrays_needed * plan.replicas) /
                       static_cast<double>(params_.array_count() * plan.passes);
  result.mapping_efficiency = result.utilization;
  result.dram_bytes_read = schedule.dram_read_bytes;
  result.dram_bytes_written = schedule.dram_write_bytes;
  result.mapping = plan.mapping;
  result.mapping["simulated"] = {{"waves", schedule.waves},
                                 {"array_read_ns", schedule.read_busy_ns},
                                 {"adc_busy_ns", schedule.adc_busy_ns},
                                 {"reprogram_ns", schedule.program_ns},
                                 {"tiles_simulated", stats.tiles_simulated},
                                 {"tiles_skipped", stats.tiles_skipped}};
  if (params_.buffer.timed()) result.mapping["simulated"]["buffer_ns"] = schedule.buffer_busy_ns;
  if (params_.bus.timed()) result.mapping["simulated"]["bus_ns"] = schedule.bus_busy_ns;
  // The DRAM channel's occupancy by the op's bytes, as the systolic and simd units count it.
  const double bytes = static_cast<double>(result.dram_bytes_read + result.dram_bytes_written);
  const CrossbarBusy busy{
      .read_ns = schedule.read_busy_ns,
      .adc_ns = schedule.adc_busy_ns,
      .dram_ns = memory.dram_bytes_per_second > 0 ? bytes / memory.dram_bytes_per_second * 1e9 : 0,
      .program_ns = schedule.program_ns,
      .buffer_ns = schedule.buffer_busy_ns,
      .bus_ns = schedule.bus_busy_ns};
  result.bound = std::string(mapping::bound_name(crossbar_bound(busy)));
  // Roofline: the ceiling is every array streaming MVMs of full arrays (rows x cols / cells per
  // weight MACs each), one input slice per slice time.
  const double full_array_macs = static_cast<double>(params_.rows) *
                                 static_cast<double>(params_.cols) /
                                 static_cast<double>(params_.cells_per_weight());
  sim::RooflinePoint point;
  point.flops = 2 * plan.macs;
  point.dram_bytes = result.dram_bytes_read + result.dram_bytes_written;
  point.seconds =
      static_cast<double>(clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle) /
      clock_hz;
  point.peak_flops_per_s = 2.0 * static_cast<double>(params_.array_count()) * full_array_macs /
                           (static_cast<double>(params_.input_slices()) * params_.slice_ns() * 1e-9);
  if (memory.dram_bytes_per_second > 0) point.dram_bytes_per_s = memory.dram_bytes_per_second;
  result.roofline = sim::roofline_json(point);
  return result;
}

sim::UnitFactory crossbar_unit_factory(CrossbarParams params, double soc_clock_ghz,
                                       std::shared_ptr<UnitSearch> decisions,
                                       CrossbarUnitOptions options) {
  return sim::unit_factory<CrossbarUnit>(params, params.clock_ghz.value_or(soc_clock_ghz),
                                         decisions, options);
}

}  // namespace polyarch::archs::crossbar
