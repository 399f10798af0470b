#include "archs/simd/module.h"

#include <cctype>
#include <map>
#include <utility>

#include "archs/simd/cost_model.h"
#include "archs/simd/roofline.h"
#include "compiler/support/checked_math.h"
#include "compiler/support/error.h"
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

// Bytes of the accumulators (fp32 / int32) the register file holds for a matrix engine.
constexpr int64_t kAccumulatorBytes = 4;
// An engine instruction covers 32 bytes of K (PTX ISA: mma m16n8k16 and wgmma m64nNk16 for
// 16-bit operands, k32 for 8-bit): it reads and writes its accumulators once per 32 bytes of K.
constexpr int64_t kEngineKBytes = 32;

nlohmann::ordered_json counts_by_dtype(const std::map<ir::DType, int64_t>& counts) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const auto& [dtype, count] : counts) json[std::string(ir::dtype_name(dtype))] = count;
  return json;
}

// The plan's activity in the result, so that energy follows from the result alone
// (archs/simd/energy.h): compute counts in mapping.activity; the memories in `sram`, in BYTES.
// register_file: a lane op reads two operands and writes one result; an SFU op reads and writes
// 4 bytes; a matrix MAC's share of its accumulator read and write. scratchpad: each staged byte
// written once and read once. l2: reads are the cores' L2 traffic (the mapper's l2_bytes) and
// DRAM write-backs, writes are DRAM fills.
void record_activity(const KernelPlan& plan, sim::OpResult& result) {
  int64_t register_reads = 0;
  int64_t register_writes = 0;
  for (const auto& [dtype, ops] : plan.vector_ops) {
    const int64_t bytes = checked_mul(ops, ir::dtype_bytes(dtype), "bytes");
    register_reads = checked_add(register_reads, checked_mul(2, bytes, "bytes"), "bytes");
    register_writes = checked_add(register_writes, bytes, "bytes");
  }
  for (const auto& [dtype, macs] : plan.matrix_macs) {
    const int64_t k_steps = macs / (kEngineKBytes / ir::dtype_bytes(dtype));
    const int64_t bytes = checked_mul(k_steps, kAccumulatorBytes, "bytes");
    register_reads = checked_add(register_reads, bytes, "bytes");
    register_writes = checked_add(register_writes, bytes, "bytes");
  }
  const int64_t sfu_bytes = checked_mul(plan.sfu_ops, 4, "bytes");
  result.sram["register_file"] = {checked_add(register_reads, sfu_bytes, "bytes"),
                                  checked_add(register_writes, sfu_bytes, "bytes")};
  result.sram["scratchpad"] = {plan.scratchpad_bytes, plan.scratchpad_bytes};
  result.sram["l2"] = {checked_add(plan.l2_bytes, plan.dram_write_bytes, "bytes"),
                       plan.dram_read_bytes};
  result.mapping["activity"] = {{"matrix_macs", counts_by_dtype(plan.matrix_macs)},
                                {"vector_ops", counts_by_dtype(plan.vector_ops)},
                                {"sfu_ops", plan.sfu_ops}};
}

}  // namespace

SimdUnit::SimdUnit(SimdParams params, double clock_ghz, sim::SharedResources& resources,
                   SimdUnitOptions options)
    : params_(std::move(params)),
      clock_(clock_ghz, resources.clock_schedule),
      options_(options),
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
  const KernelPlan plan = plan_op(params_, op, memory, clock_.clock_ghz());
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
  record_activity(plan, result);
  result.roofline = roofline_json(params_, plan, memory, clock_.clock_ghz(), total_cycles);
  return result;
}

sim::UnitFactory simd_unit_factory(SimdParams params, double soc_clock_ghz,
                                   SimdUnitOptions options) {
  return [params = std::move(params), soc_clock_ghz,
          options](sim::SharedResources& resources) -> std::unique_ptr<sim::UnitModel> {
    const double clock_ghz = params.clock_ghz.value_or(soc_clock_ghz);
    return std::make_unique<SimdUnit>(params, clock_ghz, resources, options);
  };
}

}  // namespace polyarch::archs::simd
