#include "archs/systolic/mapping_decision.h"

#include <cstdio>

#include "mapping/cache/cached_search.h"

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

std::optional<mapping::UnitOption> systolic_explain_option(const SystolicParams& unit,
                                                           const std::string& unit_config,
                                                           const ir::Op& op,
                                                           const SystolicMappingEnv& env,
                                                           const mapping::Objective& objective,
                                                           const mapping::DecisionCache* cache) {
  const SystolicMappingProblem problem(unit, op, env);
  char channel[96];
  std::snprintf(channel, sizeof channel, " clock=%g bw=%g lat=%g", env.channel.clock_ghz,
                env.channel.dram_bytes_per_second, env.channel.dram_latency_s);
  mapping::DecisionKey key{.op_shape = op_shape(op, op.dtype.value_or(unit.dtype)),
                           .unit_config = unit_config + channel + " dram=" + env.dram_kind};
  const std::optional<mapping::Decision> decision =
      mapping::decide(problem, objective, "exhaustive", {}, std::move(key), cache);
  if (!decision) return std::nullopt;
  return mapping::UnitOption{
      .unit = unit.name,
      .kind = "systolic",
      .cost = decision->cost,
      .has_bound = true,
      .mapping = decision->mapping,
      .source = decision->from_cache
                    ? "cached"
                    : "searched, " + std::to_string(decision->evaluations) + " evaluations"};
}

}  // namespace polyarch::archs::systolic
