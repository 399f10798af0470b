#include "archs/simd/module.h"

#include <cctype>
#include <map>
#include <utility>

#include "archs/simd/cost_model.h"
#include "archs/simd/plan_activity.h"
#include "archs/simd/roofline.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "sim/memory/dram_channel.h"

namespace polyarch::archs::simd {

namespace {

std::string module_name(const std::string& unit_name) {
  std::string name = "simd_";
  for (char c : unit_name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// The steps as folds of the shared pipeline: a step's cycles and DRAM traffic are all it uses.
systolic::SystolicPlan fold_plan(const KernelPlan& plan) {
  systolic::SystolicPlan folds;
  folds.gemm_repeats = 1;
  for (const StepBlock& block : plan.blocks) {
    systolic::FoldBlock fold_block;
    fold_block.repeat = block.repeat;
    for (const StepRun& run : block.runs) {
      systolic::FoldShape shape;
      shape.cycles = run.step.cycles;
      shape.dram_read_bytes = run.step.dram_read_bytes;
      shape.dram_write_bytes = run.step.dram_write_bytes;
      fold_block.runs.push_back({shape, run.count});
    }
    folds.blocks.push_back(std::move(fold_block));
  }
  return folds;
}

}  // namespace

SimdUnit::SimdUnit(SimdParams params, double clock_ghz, sim::SharedResources& resources,
                   SimdUnitOptions options, std::shared_ptr<UnitSearch> search)
    : params_(std::move(params)),
      clock_(clock_ghz, resources.clock_schedule),
      options_(options),
      search_(std::move(search)),
      dram_(sim::require_dram(resources, "simd unit '" + params_.name + "'")) {
  const int initiator = dram_.register_initiator(params_.name);
  // Two staging slots: the next step's operands arrive while this step computes.
  pipeline_ = std::make_unique<systolic::FoldPipeline>(module_name(params_.name).c_str(), dram_,
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
  systolic::PipelineRunStats stats;
  if (!plan.blocks.empty()) {
    pipeline_->set_slots(plan.staging_slots);
    stats = pipeline_->run(fold_plan(plan), false);
  }
  const int64_t total_cycles = clock_.cycles_at_or_after(sc_core::sc_time_stamp()) - start_cycle;

  sim::OpResult result;
  result.unit_clock_ghz = clock_.clock_ghz();
  result.compute_cycles = plan.compute_cycles;
  result.macs = plan.macs;
  const double peak = plan.peak_flops_per_cycle * static_cast<double>(total_cycles);
  result.utilization = peak > 0 ? static_cast<double>(plan.flops) / peak : 0.0;
  result.mapping_efficiency = plan.mapping_efficiency;
  result.dram_bytes_read = plan.dram_read_bytes;
  result.dram_bytes_written = plan.dram_write_bytes;
  result.mapping = plan.mapping;
  result.mapping["steps"] = plan.step_count();
  result.mapping["estimate_cycles"] =
      estimate_cycles(plan, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
  result.mapping["steady_state_fast_forward"] = {{"enabled", options_.fast_forward},
                                                 {"steps_simulated", stats.folds_simulated},
                                                 {"steps_skipped", stats.folds_skipped}};
  const Bound bound = op_bound(plan, memory, total_cycles);
  result.bound = std::string(bound_class(bound));
  result.mapping["limit"] = std::string(bound_name(bound));
  record_plan_activity(plan, result);
  result.roofline = roofline_json(params_, plan, memory, clock_.clock_ghz(), total_cycles);
  return result;
}

sim::UnitFactory simd_unit_factory(SimdParams params, double soc_clock_ghz,
                                   SimdUnitOptions options, std::shared_ptr<UnitSearch> search) {
  return [params = std::move(params), soc_clock_ghz, options,
          search = std::move(search)](sim::SharedResources& resources)
             -> std::unique_ptr<sim::UnitModel> {
    const double clock_ghz = params.clock_ghz.value_or(soc_clock_ghz);
    return std::make_unique<SimdUnit>(params, clock_ghz, resources, options, search);
  };
}

}  // namespace polyarch::archs::simd
