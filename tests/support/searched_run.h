#pragma once
// One op on one unit of a shipped SoC with the run's mapping search switched on (what `polyarch
// run --search` does to every unit): the kind's analytical estimate and its SystemC result, both
// under the searched mapping, for tests that hold a kind's mapping space to its SystemC model.
#include <gtest/gtest.h>

#include <memory>
#include <string>

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
