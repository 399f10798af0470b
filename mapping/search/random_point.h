#pragma once
// Drawing points of a space: uniformly, and valid ones with a bounded number of redraws (a space
// that is mostly invalid should not spin a search forever).
#include <optional>

#include "mapping/search/rng.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::mapping {

inline MappingPoint random_point(const MappingSpace& space, Rng& rng) {
  MappingPoint point(space.dimension_count());
  for (std::size_t i = 0; i < point.size(); ++i) {
    point[i] = static_cast<uint32_t>(rng.below(space.dimensions()[i].values.size()));
  }
  return point;
}

inline std::optional<MappingPoint> random_valid_point(const MappingProblem& problem, Rng& rng,
                                                      int attempts = 1000) {
  for (int attempt = 0; attempt < attempts; ++attempt) {
    MappingPoint point = random_point(problem.space(), rng);
    if (problem.valid(point)) return point;
  }
  return std::nullopt;
}

}  // namespace polyarch::mapping
