#include "archs/simd/module.h"

#include <cctype>
#include <map>
#include <utility>

#include "archs/simd/cost_model.h"
#include "archs/planned_op_result.h"
#include "archs/simd/plan_activity.h"
#include "archs/simd/roofline.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "sim/memory/dram_channel.h"
#include "sim/memory/unit_dram.h"

namespace polyarch::archs::simd {

namespace {

std::string module_name(const std::string& unit_name) {
  std::string name = "simd_";
  for (char c : unit_name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// The steps as tiles of the tile runner: a step's cycles and DRAM traffic are all it uses.
sim::TilePlan tile_plan(const KernelPlan& plan) {
  sim::TilePlan tiles;
  for (const StepBlock& block : plan.blocks) {
    sim::TileBlock tile_block;
    tile_block.repeat = block.repeat;
    for (const StepRun& run : block.runs) {
      tile_block.runs.push_back(
          {{run.tile.cycles, run.tile.dram_read_bytes, run.tile.dram_write_bytes}, run.count});
    }
    tiles.blocks.push_back(std::move(tile_block));
  }
  return tiles;
}

}  // namespace

SimdUnit::SimdUnit(sim::SharedResources& resources, SimdParams params, double clock_ghz,
                   SimdUnitOptions options, std::shared_ptr<UnitSearch> search)
    : params_(std::move(params)),
      clock_(clock_ghz, resources.clock_schedule),
      options_(options),
      search_(std::move(search)),
      dram_(sim::require_dram(resources, "simd unit '" + params_.name + "'")) {
  const int initiator = dram_.register_initiator(params_.name);
  // Two staging slots: the next step's operands arrive while this step computes.
  tile_runner_ = std::make_unique<sim::TileRunner>(module_name(params_.name).c_str(), dram_,
                                                   initiator, clock_, 2, options_.fast_forward);
}

SimdUnit::~SimdUnit() = default;

bool SimdUnit::supports(const ir::Op& op) const { return simd_supports(op); }

sim::OpResult SimdUnit::execute(const ir::Op& op) {
  const MemoryView memory = sim::memory_view(dram_, clock_.clock_ghz());
  const KernelPlan plan = plan_op(params_, op, memory, clock_.clock_ghz(), search_.get());
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const int64_t start_cycle = clock_.cycles_at_or_after(start);
  if (plan.launch_cycles > 0) sc_core::wait(clock_.time_of(start_cycle + plan.launch_cycles) - start);
  sim::TileRunStats stats;
  if (!plan.blocks.empty()) {
    tile_runner_->set_slots(plan.staging_slots);
    stats = tile_runner_->run(tile_plan(plan), false);
  }
  const int64_t total_cycles = clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle;

  sim::OpResult result = planned_op_result(plan, total_cycles, clock_.clock_ghz());
  result.mapping["steps"] = plan.step_count();
  result.mapping["estimate_cycles"] =
      estimate_cycles(plan, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
  result.mapping["steady_state_fast_forward"] = {{"enabled", options_.fast_forward},
                                                 {"steps_simulated", stats.tiles_simulated},
                                                 {"steps_skipped", stats.tiles_skipped}};
  const Bound bound = op_bound(plan, memory, total_cycles);
  result.bound = std::string(bound_class(bound));
  result.mapping["limit"] = std::string(bound_name(bound));
  record_plan_activity(plan, params_, result);
  result.roofline = roofline_json(params_, plan, memory, clock_.clock_ghz(), total_cycles);
  return result;
}

sim::UnitFactory simd_unit_factory(SimdParams params, double soc_clock_ghz,
                                   SimdUnitOptions options, std::shared_ptr<UnitSearch> search) {
  return sim::unit_factory<SimdUnit>(params, params.clock_ghz.value_or(soc_clock_ghz), options,
                                     search);
}

}  // namespace polyarch::archs::simd
