#include "archs/systolic/mapping_decision.h"

#include <algorithm>

#include "archs/systolic/operand_types.h"

namespace polyarch::archs::systolic {

namespace {

// The op as the systolic cost model sees it: its GEMM view and element type.
std::string op_shape(const ir::Op& op, ir::DType dtype) {
  const ir::GemmView view = ir::gemm_view(op);
  return std::string(ir::op_kind_name(op.kind())) + " m=" + std::to_string(view.m) +
         " n=" + std::to_string(view.n) + " k=" + std::to_string(view.k) +
         " repeats=" + std::to_string(view.repeats) +
         " ifmap=" + std::to_string(view.ifmap_distinct_elements) +
         " dtype=" + std::string(ir::dtype_name(dtype));
}

}  // namespace

std::optional<KindMappingQuery<SystolicMappingProblem>> systolic_mapping_query(
    const SystolicParams& unit, const ir::Op& op, double clock_ghz, const sim::MemoryView& memory,
    const MappingEnergy& energy) {
  if (op.kind() != ir::OpKind::kGemm && op.kind() != ir::OpKind::kConv2d) return std::nullopt;
  // A row-stationary unit maps each op itself (PE sets, strips, tiles: row_stationary.h); the
  // search space below reconfigures the GEMM dataflows only.
  if (unit.dataflow == Dataflow::kRowStationary) return std::nullopt;
  const double cycles_per_second = clock_ghz * 1e9;
  const SystolicMappingEnv env{
      .clock_ghz = clock_ghz,
      .dram = {.dram_bytes_per_second =
                   std::max(0.0, memory.dram_bytes_per_cycle) * cycles_per_second,
               .dram_latency_s =
                   static_cast<double>(memory.dram_latency_cycles) / cycles_per_second},
      .tech = energy.tech.get(),
      .dram_kind = energy.dram_kind};
  return KindMappingQuery<SystolicMappingProblem>{
      std::make_shared<const SystolicMappingProblem>(unit, op, env),
      op_shape(op, systolic_stored_dtype(unit, op)) + channel_key(clock_ghz, memory) +
          " dram=" + energy.dram_kind};
}

SystolicRun systolic_run(const SystolicParams& unit, const ir::Op& op, double clock_ghz,
                         const sim::MemoryView& memory, UnitSearch* search) {
  SystolicRun own{.params = unit, .ops = {op}, .search = nullptr};
  if (search == nullptr) return own;
  const auto query = systolic_mapping_query(unit, op, clock_ghz, memory, search->energy());
  if (!query) return own;
  const std::optional<mapping::Decision> decision = search->decide(query->generic());
  if (!decision) return own;
  return {.params = query->problem->configured_params(decision->point),
          .ops = query->problem->tile_ops(decision->point),
          .search = search->decision_json(*decision),
          .estimate_s = decision->cost.latency_s};
}

}  // namespace polyarch::archs::systolic
