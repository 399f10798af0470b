#include "archs/systolic/module.h"

#include <cctype>
#include <utility>

#include "archs/systolic/cost_model.h"
#include "archs/systolic/fold_tiles.h"
#include "archs/systolic/mapping_decision.h"
#include "base/error.h"
#include "sim/memory/dram_channel.h"
#include "sim/memory/unit_dram.h"

namespace polyarch::archs::systolic {

namespace {

// SystemC module names may not contain its hierarchy separator or spaces.
std::string module_name(const std::string& unit_name) {
  std::string name = "systolic_";
  for (char c : unit_name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

nlohmann::ordered_json fast_forward_json(bool enabled, const sim::TileRunStats& stats) {
  return {{"enabled", enabled},
          {"folds_simulated", stats.tiles_simulated},
          {"folds_skipped", stats.tiles_skipped},
          {"skips", stats.skips}};
}

}  // namespace

SystolicUnit::SystolicUnit(SystolicParams params, double clock_ghz, sim::SharedResources& resources,
                           SystolicUnitOptions options, std::shared_ptr<UnitSearch> search)
    : params_(std::move(params)),
      clock_(clock_ghz, resources.clock_schedule),
      options_(options),
      search_(std::move(search)),
      dram_(resources.dram) {
  if (resources.dram == nullptr) {
    throw_runtime({}, "systolic unit '" + params_.name + "' created without a DRAM channel");
  }
  const int initiator = resources.dram->register_initiator(params_.name);
  // Double buffering gives each operand buffer two halves: one feeds the array while the other
  // is filled (SCALE-Sim's double-buffered SRAM); otherwise loads and compute alternate.
  const int slots = params_.buffers.double_buffered ? 2 : 1;
  tile_runner_ =
      std::make_unique<sim::TileRunner>(module_name(params_.name).c_str(), *resources.dram,
                                        initiator, clock_, slots, options_.fast_forward);
}

SystolicUnit::~SystolicUnit() = default;

bool SystolicUnit::supports(const ir::Op& op) const {
  return op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d;
}

sim::OpResult SystolicUnit::execute(const ir::Op& op) {
  // The unit's own configuration runs the op whole; a searched mapping reconfigures the array's
  // dataflow and buffers and may run the op as temporal tiles, one after another.
  const SystolicRun run = systolic_run(params_, op, clock_.clock_ghz(),
                                       sim::memory_view(*dram_, clock_.clock_ghz()), search_.get());
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  tile_runner_->set_slots(run.params.buffers.double_buffered ? 2 : 1);
  sim::OpResult result;
  sim::TileRunStats stats;
  double weighted_efficiency = 0;
  for (const ir::Op& tile : run.ops) {
    const SystolicPlan plan = plan_op(run.params, tile);
    const sim::TileRunStats tile_stats =
        tile_runner_->run(fold_tiles(plan), run.params.scalesim_compat);
    stats.tiles_simulated += tile_stats.tiles_simulated;
    stats.tiles_skipped += tile_stats.tiles_skipped;
    stats.skips += tile_stats.skips;
    result.compute_cycles += plan.compute_cycles;
    result.macs += plan.macs;
    weighted_efficiency += plan.mapping_efficiency * static_cast<double>(plan.macs);
    result.dram_bytes_read += plan.dram_read_bytes;
    result.dram_bytes_written += plan.dram_write_bytes;
    result.sram["ifmap"].reads += plan.ifmap_sram_reads;
    result.sram["filter"].reads += plan.filter_sram_reads;
    result.sram["ofmap"].reads += plan.ofmap_sram_reads;
    result.sram["ofmap"].writes += plan.ofmap_sram_writes;
    if (result.mapping.is_null()) {
      result.mapping = plan.mapping.is_object() ? plan.mapping : nlohmann::ordered_json::object();
    }
  }
  const int64_t total_cycles =
      clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - clock_.cycles_at_or_after(start);

  result.unit_clock_ghz = clock_.clock_ghz();
  const double peak_macs = static_cast<double>(params_.rows) * static_cast<double>(params_.cols) *
                           static_cast<double>(total_cycles);
  result.utilization = peak_macs > 0 ? static_cast<double>(result.macs) / peak_macs : 0.0;
  result.mapping_efficiency =
      result.macs > 0 ? weighted_efficiency / static_cast<double>(result.macs) : 0.0;
  if (!run.search.is_null()) {
    result.mapping["search"] = run.search;
    result.mapping["temporal_tiles"] = run.ops.size();
  }
  result.mapping["steady_state_fast_forward"] = fast_forward_json(options_.fast_forward, stats);
  return result;
}

sim::UnitFactory systolic_unit_factory(SystolicParams params, double soc_clock_ghz,
                                       SystolicUnitOptions options,
                                       std::shared_ptr<UnitSearch> search) {
  return [params = std::move(params), soc_clock_ghz, options,
          search = std::move(search)](sim::SharedResources& resources)
             -> std::unique_ptr<sim::UnitModel> {
    const double clock_ghz = params.clock_ghz.value_or(soc_clock_ghz);
    return std::make_unique<SystolicUnit>(params, clock_ghz, resources, options, search);
  };
}

}  // namespace polyarch::archs::systolic
