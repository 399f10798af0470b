#include "archs/systolic/module.h"

#include <cctype>
#include <utility>

#include "archs/systolic/cost_model.h"
#include "archs/systolic/fold_tiles.h"
#include "archs/systolic/mapping_decision.h"
#include "archs/systolic/op_bound.h"
#include "archs/systolic/operand_types.h"
#include "base/error.h"
#include "sim/memory/dram_channel.h"
#include "sim/memory/unit_dram.h"
#include "sim/roofline.h"

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

void SystolicUnit::describe_limits(const ir::Op& op, const SystolicParams& run_params,
                                   const sim::MemoryView& memory, int64_t total_cycles,
                                   sim::OpResult& result) const {
  const double dram_bytes = static_cast<double>(result.dram_bytes_read + result.dram_bytes_written);
  const double dram_cycles =
      memory.dram_bytes_per_cycle > 0 ? dram_bytes / memory.dram_bytes_per_cycle : 0.0;
  const ir::DType dtype = systolic_stored_dtype(run_params, op);  // as DRAM holds the operands
  result.bound = std::string(mapping::bound_name(
      systolic_bound(static_cast<double>(result.compute_cycles), dram_cycles, dram_bytes,
                     compulsory_dram_bytes(ir::gemm_view(op), dtype))));
  const double cycles_per_second = clock_.clock_ghz() * 1e9;
  // A MAC is two FLOPs; every PE does one per cycle.
  const double peak_flops_per_cycle =
      2.0 * static_cast<double>(params_.rows) * static_cast<double>(params_.cols);
  sim::RooflinePoint point;
  point.flops = 2 * result.macs;
  point.dram_bytes = result.dram_bytes_read + result.dram_bytes_written;
  point.seconds = static_cast<double>(total_cycles) / cycles_per_second;
  point.peak_flops_per_s = peak_flops_per_cycle * cycles_per_second;
  if (memory.dram_bytes_per_cycle > 0) {
    point.dram_bytes_per_s = memory.dram_bytes_per_cycle * cycles_per_second;
  }
  result.roofline = sim::roofline_json(point);
}

SystolicUnit::SystolicUnit(sim::SharedResources& resources, SystolicParams params, double clock_ghz,
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
  const sim::MemoryView memory = sim::memory_view(*dram_, clock_.clock_ghz());
  const SystolicRun run = systolic_run(params_, op, clock_.clock_ghz(), memory, search_.get());
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  tile_runner_->set_slots(run.params.buffers.double_buffered ? 2 : 1);
  sim::OpResult result;
  sim::TileRunStats stats;
  double weighted_efficiency = 0;
  for (const ir::Op& tile : run.ops) {
    const SystolicPlan plan = plan_op(run.params, tile, memory.dram_bytes_per_cycle);
    // The first tile's plan describes the mapping (the others repeat it on other data).
    if (&tile == &run.ops.front()) result.mapping = plan.mapping;
    const sim::TileRunStats tile_stats =
        tile_runner_->run(fold_tiles(plan), drops_scalesim_last_cycle(run.params));
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
  describe_limits(op, run.params, memory, total_cycles, result);
  return result;
}

sim::UnitFactory systolic_unit_factory(SystolicParams params, double soc_clock_ghz,
                                       SystolicUnitOptions options,
                                       std::shared_ptr<UnitSearch> search) {
  return sim::unit_factory<SystolicUnit>(params, params.clock_ghz.value_or(soc_clock_ghz), options,
                                         search);
}

}  // namespace polyarch::archs::systolic
