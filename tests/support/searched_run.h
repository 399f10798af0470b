#pragma once
// One op on one unit of a shipped SoC with the run's mapping search switched on (what `polyarch
// run --search` does to every unit): the kind's analytical estimate and its SystemC result, both
// under the searched mapping, for tests that hold a kind's mapping space to its SystemC model.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "archs/soc/soc_config.h"
#include "mapping/search/searchers.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::test_support {

struct SearchedOpRun {
  double estimate_s = 0;  // UnitConfig::estimate_seconds
  sim::OpResult simulated;
};

inline SearchedOpRun run_searched(const std::string& arch_file, const std::string& kind,
                                  const ir::Op& op,
                                  std::shared_ptr<const mapping::SearchPolicy> policy) {
  archs::SocConfig soc =
      archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + arch_file);
  sim::SystemSpec system = soc.system_spec();
  for (const auto& unit : soc.units) {
    if (unit->kind() != kind) continue;
    if (policy) unit->use_mapping_search(policy);
    SearchedOpRun run;
    run.estimate_s = *unit->estimate_seconds(op, soc.memory_context(), soc.clock_ghz);
    system = soc.system_spec();  // the factories now carry the unit's decisions
    std::erase_if(system.units,
                  [&](const sim::UnitSpec& spec) { return spec.name != unit->name(); });
    run.simulated = simulate_ops(system, {op}).ops.front();
    return run;
  }
  throw std::runtime_error(arch_file + " has no " + kind + " unit");
}

// The same op with the unit's mapping pinned to `point` (as MappingSpace::describe writes it)
// instead of searched: how another mapping than the chosen one simulates.
inline SearchedOpRun run_pinned(const std::string& arch_file, const std::string& kind,
                                const ir::Op& op, const std::string& point,
                                mapping::Objective objective = {}) {
  auto policy = std::make_shared<mapping::SearchPolicy>();
  policy->pinned = point;
  policy->objective = objective;
  SearchedOpRun run = run_searched(arch_file, kind, op, policy);
  EXPECT_EQ(run.simulated.mapping.at("search").at("point"), point) << arch_file << " " << op.name;
  return run;
}

// Up to `count` valid points spread evenly through `problem`'s space: the first valid point at or
// after each of `count` evenly spaced ranks (all valid points of a space no larger than `count`).
inline std::vector<mapping::MappingPoint> spread_of_valid_points(
    const mapping::MappingProblem& problem, int64_t count) {
  std::vector<mapping::MappingPoint> points;
  const int64_t size = problem.space().size();
  const int64_t steps = std::min(count, size);
  for (int64_t step = 0; step < steps; ++step) {
    const int64_t end = (step + 1) * size / steps;
    for (int64_t rank = step * size / steps; rank < end; ++rank) {
      mapping::MappingPoint point = problem.space().unrank(rank);
      if (!problem.valid(point)) continue;
      points.push_back(std::move(point));
      break;
    }
  }
  return points;
}

// The valid points one step from `point` in one dimension: where a cost model's choice is most
// likely to be beaten if it prices something wrongly.
inline std::vector<mapping::MappingPoint> valid_neighbours(const mapping::MappingProblem& problem,
                                                           const mapping::MappingPoint& point) {
  std::vector<mapping::MappingPoint> neighbours;
  const auto& dimensions = problem.space().dimensions();
  for (std::size_t dimension = 0; dimension < dimensions.size(); ++dimension) {
    for (int step : {-1, 1}) {
      const int64_t index = static_cast<int64_t>(point[dimension]) + step;
      if (index < 0 || index >= static_cast<int64_t>(dimensions[dimension].values.size())) continue;
      mapping::MappingPoint neighbour = point;
      neighbour[dimension] = static_cast<uint32_t>(index);
      if (problem.valid(neighbour)) neighbours.push_back(std::move(neighbour));
    }
  }
  return neighbours;
}

// Every seeded searcher, run twice with one seed, evaluates the same points in the same order.
inline void expect_deterministic_searches(const mapping::MappingProblem& problem, uint64_t seed) {
  for (const char* searcher : {"random", "genetic", "annealing", "ranked"}) {
    const mapping::SearchOptions options{.seed = seed, .max_evaluations = 50};
    const mapping::SearchResult first =
        mapping::run_search(searcher, problem, mapping::Objective{}, options);
    const mapping::SearchResult second =
        mapping::run_search(searcher, problem, mapping::Objective{}, options);
    ASSERT_TRUE(first.found()) << searcher;
    EXPECT_EQ(first.best, second.best) << searcher << " seed " << seed;
    ASSERT_EQ(first.evaluated.size(), second.evaluated.size()) << searcher;
    for (std::size_t i = 0; i < first.evaluated.size(); ++i) {
      EXPECT_EQ(first.evaluated[i].point, second.evaluated[i].point)
          << searcher << " seed " << seed << " evaluation " << i;
    }
  }
}

}  // namespace polyarch::test_support
