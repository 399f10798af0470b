#pragma once
// The systolic unit's answer for `polyarch compile --explain`: the best mapping of an op by
// exhaustive search over its mapping space (mapper.h; ~1 300 points, under a millisecond), read
// from the decision cache when an earlier compile stored it.
#include <optional>

#include "archs/systolic/mapper.h"
#include "mapping/cache/decision_cache.h"
#include "mapping/search/explain.h"

namespace polyarch::archs::systolic {

// nullopt when no mapping is valid. `unit_config` is the unit's canonical description (its
// describe() JSON), part of the cache key; `cache` may be null.
std::optional<mapping::UnitOption> systolic_explain_option(const SystolicParams& unit,
                                                           const std::string& unit_config,
                                                           const ir::Op& op,
                                                           const SystolicMappingEnv& env,
                                                           const mapping::Objective& objective,
                                                           const mapping::DecisionCache* cache);

}  // namespace polyarch::archs::systolic
