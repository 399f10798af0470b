#include "archs/unit_explain.h"

namespace polyarch::archs {

std::optional<mapping::UnitOption> explain_unit_option(const UnitConfig& unit,
                                                       const ProgramEstimates& estimates,
                                                       const ir::Op& op,
                                                       mapping::UnitDecisions& decisions) {
  if (!unit.supports(op)) return std::nullopt;
  if (const std::optional<MappingQuery> query = estimates.query(op)) {
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
  const std::optional<double> seconds = estimates.seconds(op);
  if (!seconds) return std::nullopt;
  return mapping::UnitOption{.unit = unit.name(),
                             .kind = unit.kind(),
                             .cost = {.latency_s = *seconds},
                             .has_bound = false,
                             .mapping = {},
                             .source = "estimate"};
}

}  // namespace polyarch::archs
