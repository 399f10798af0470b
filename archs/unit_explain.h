#pragma once
// One unit's answer for `polyarch compile --explain`, the same for every kind: a kind with a
// mapping space for the op (UnitConfig::mapping_query) gives the best mapping its space holds
// under the run's searcher and objective, with cost, bound and where the decision came from; a
// kind without one gives its analytical latency estimate.
#include <optional>

#include "archs/unit_config.h"
#include "mapping/search/explain.h"

namespace polyarch::archs {

// nullopt when the unit does not run the op (or its space has no valid point and it gives no
// estimate). `estimates` are the unit's within the explained program
// (UnitConfig::program_estimates). `decisions` is this unit's (unit_config: its describe()
// JSON), so the decision key is the one `polyarch run --search` decides under and both share the
// cache.
std::optional<mapping::UnitOption> explain_unit_option(const UnitConfig& unit,
                                                       const ProgramEstimates& estimates,
                                                       const ir::Op& op,
                                                       mapping::UnitDecisions& decisions);

}  // namespace polyarch::archs
