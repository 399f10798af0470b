#include "archs/dataflow/module.h"

#include <algorithm>
#include <cctype>

#include "archs/dataflow/activity.h"
#include "archs/dataflow/dataflow_space.h"
#include "sim/memory/unit_dram.h"
#include "sim/roofline.h"

namespace polyarch::archs::dataflow {

namespace {

std::string module_name(const std::string& unit_name) {
  std::string name = "dataflow_";
  for (char c : unit_name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// The phase's steps as tiles of the tile runner: a step's cycles and DRAM traffic are all it uses.
sim::TilePlan tile_plan(const LoopPhase& phase) {
  sim::TileBlock block;
  for (const PlanStep& step : phase.steps) {
    block.runs.push_back({{step.cycles, step.dram_read_bytes, step.dram_write_bytes}, step.count});
  }
  sim::TilePlan tiles;
  tiles.blocks.push_back(std::move(block));
  return tiles;
}

void wait_cycles(const sim::UnitClock& clock, int64_t cycles) {
  if (cycles <= 0) return;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const int64_t start = clock.cycles_at_or_after(now);
  sc_core::wait(clock.time_of(start + cycles) - now);
}

}  // namespace

DataflowUnit::DataflowUnit(sim::SharedResources& resources, DataflowParams params, double clock_ghz,
                           std::shared_ptr<MappingCache> cache,
                           std::shared_ptr<UnitSearch> decisions)
    : params_(std::move(params)),
      clock_(clock_ghz, resources.clock_schedule),
      dram_(sim::require_dram(resources, "dataflow unit '" + params_.name + "'")),
      cache_(std::move(cache)),
      decisions_(std::move(decisions)) {
  const int initiator = dram_.register_initiator(params_.name);
  // Two scratchpad halves: the next step's operands arrive while this step computes.
  tile_runner_ = std::make_unique<sim::TileRunner>(module_name(params_.name).c_str(), dram_,
                                                   initiator, clock_, 2, true);
}

DataflowUnit::~DataflowUnit() = default;

bool DataflowUnit::supports(const ir::Op& op) const {
  return unsupported_reason(params_, op).empty();
}

int64_t DataflowUnit::configure(const LoopPhase& phase, bool& loaded) {
  const MappedLoop* config = phase.loop.get();
  auto found = std::find(resident_.begin(), resident_.end(), config);
  loaded = found == resident_.end();
  if (!loaded) {
    resident_.splice(resident_.begin(), resident_, found);
    return params_.config.context_switch_cycles;
  }
  resident_.push_front(config);
  if (static_cast<int64_t>(resident_.size()) > params_.config.contexts) resident_.pop_back();
  return phase.config_cycles;
}

sim::OpResult DataflowUnit::execute(const ir::Op& op) {
  const DataflowPlan plan =
      plan_for_run(params_, op, cache_, sim::memory_view(dram_, clock_.clock_ghz()),
                   clock_.clock_ghz(), decisions_.get());
  const int64_t start_cycle = clock_.cycles_at_or_after(sc_core::sc_time_stamp());
  int64_t config_cycles = 0;
  int64_t config_loads = 0;
  int64_t config_bytes = 0;
  int64_t steps_skipped = 0;
  for (const LoopPhase& phase : plan.phases) {
    bool loaded = false;
    const int64_t cycles = configure(phase, loaded);
    config_cycles += cycles;
    config_loads += loaded ? 1 : 0;
    config_bytes += loaded ? phase.config_bytes : 0;
    wait_cycles(clock_, cycles);
    tile_runner_->set_slots(plan.staging_slots);
    steps_skipped += tile_runner_->run(tile_plan(phase), false).tiles_skipped;
  }
  const int64_t total_cycles = clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle;

  sim::OpResult result;
  result.unit_clock_ghz = clock_.clock_ghz();
  result.compute_cycles = config_cycles;
  for (const LoopPhase& phase : plan.phases) result.compute_cycles += phase.compute_cycles;
  result.macs = plan.macs;
  // Utilisation: the op's arithmetic over what every PE's lanes could issue meanwhile.
  const double peak =
      static_cast<double>(params_.pe.count() * params_.pe.lanes * params_.pe.stages) *
      static_cast<double>(std::max<int64_t>(total_cycles, 1));
  result.utilization = static_cast<double>(plan.macs > 0 ? plan.macs : plan.flops) / peak;
  result.mapping_efficiency =
      static_cast<double>(plan.pes_used) / static_cast<double>(params_.pe.count());
  result.dram_bytes_read = plan.dram_read_bytes;
  result.dram_bytes_written = plan.dram_write_bytes;
  result.mapping = plan.mapping;
  const sim::MemoryView memory = sim::memory_view(dram_, clock_.clock_ghz());
  const DataflowActivity activity{params_.run_dtype(op), plan_activity(plan),
                                  config_bytes};
  record_activity(activity,
                  {{"reconfiguration_cycles", config_cycles},
                   {"configurations_loaded", config_loads},
                   {"estimate_cycles",
                    estimate_cycles(plan, memory.dram_bytes_per_cycle, memory.dram_latency_cycles)},
                   {"steps_skipped", steps_skipped}},
                  result.mapping);
  result.sram["scratchpad"] = {activity.work.scratchpad_bytes, activity.work.scratchpad_bytes};
  const bool memory_bound = total_cycles > result.compute_cycles + result.compute_cycles / 20;
  // A fabric-bound op is routing-bound (noc) when the loops whose interval routing set take most
  // of its simulated compute cycles.
  result.bound = config_cycles * 2 > total_cycles ? "reconfiguration"
                 : memory_bound                   ? "dram"
                 : routing_bound(plan)            ? "noc"
                                                  : "compute";
  // Roofline: the ceiling is every PE lane and stage doing a MAC (2 FLOPs) each cycle.
  const double cycles_per_second = clock_.clock_ghz() * 1e9;
  sim::RooflinePoint point;
  point.flops = plan.flops;
  point.dram_bytes = plan.dram_read_bytes + plan.dram_write_bytes;
  point.seconds = static_cast<double>(total_cycles) / cycles_per_second;
  point.peak_flops_per_s =
      2.0 * static_cast<double>(params_.pe.count() * params_.pe.lanes * params_.pe.stages) *
      cycles_per_second;
  if (memory.dram_bytes_per_cycle > 0) {
    point.dram_bytes_per_s = memory.dram_bytes_per_cycle * cycles_per_second;
  }
  result.roofline = sim::roofline_json(point);
  return result;
}

sim::UnitFactory dataflow_unit_factory(DataflowParams params, double soc_clock_ghz,
                                       std::shared_ptr<MappingCache> cache,
                                       std::shared_ptr<UnitSearch> decisions) {
  return sim::unit_factory<DataflowUnit>(params, params.clock_ghz.value_or(soc_clock_ghz), cache,
                                         decisions);
}

}  // namespace polyarch::archs::dataflow
