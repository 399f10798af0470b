#include "archs/unit_explain.h"

namespace polyarch::archs {

std::optional<mapping::UnitOption> explain_unit_option(const UnitConfig& unit, const ir::Op& op,
                                                       const MemoryContext& memory,
                                                       double soc_clock_ghz,
                                                       mapping::UnitDecisions& decisions) {
  if (!unit.supports(op)) return std::nullopt;
  if (const std::optional<MappingQuery> query = unit.mapping_query(op, memory, soc_clock_ghz)) {
    if (const std::optional<mapping::Decision> decision =
            decisions.decide(*query->problem, query->op_shape)) {
      return mapping::UnitOption{
          .unit = unit.name(),
          .kind = unit.kind(),
          .cost = decision->cost,
          .has_bound = true,
          .mapping = decision->mapping,
          .source = decision->from_cache
                        ? "cached"
                        : "searched, " + std::to_string(decision->evaluations) + " evaluations"};
    }
  }
  const std::optional<double> seconds = unit.estimate_seconds(op, memory, soc_clock_ghz);
  if (!seconds) return std::nullopt;
  return mapping::UnitOption{.unit = unit.name(),
                             .kind = unit.kind(),
                             .cost = {.latency_s = *seconds},
                             .has_bound = false,
                             .mapping = {},
                             .source = "estimate"};
}

}  // namespace polyarch::archs
