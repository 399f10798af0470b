// The kinds' mapping spaces as `compile --explain` and `run --search` see them through
// UnitConfig::mapping_query (archs/unit_search.h, archs/unit_explain.h): every kind prices the
// energy of a mapping with its own energy model, and no other mapping the SystemC model runs
// costs clearly less energy than the one that model chose.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "archs/unit_explain.h"
#include "mapping/search/searchers.h"
#include "tests/support/ir_builders.h"
#include "tests/support/searched_run.h"

namespace polyarch::archs {
namespace {

struct KindCase {
  const char* arch;  // a shipped configs/arch file
  const char* kind;
};

// A decode-step projection every kind runs (PIM takes at most max_batch = 16 rows).
ir::Op projection() {
  return test_support::make_op("proj", ir::GemmAttrs{.m = 8, .n = 1024, .k = 1024});
}

const UnitConfig& unit_of(const SocConfig& soc, const std::string& kind) {
  for (const auto& unit : soc.units) {
    if (unit->kind() == kind) return *unit;
  }
  throw std::runtime_error("no " + kind + " unit");
}

SocConfig load(const std::string& arch) {
  return load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + arch);
}

double total_j(const sim::EnergyByAction& energy) {
  double joules = 0;
  for (const auto& [action, value] : energy) joules += value;
  return joules;
}

class SearchedEnergy : public testing::TestWithParam<KindCase> {};

// The energy the search minimises is the kind's cost model's: the SystemC model, running the
// energy-optimal mapping and other valid mappings (its neighbours one step away in one dimension,
// the latency optimum and points evenly spaced through the space), must not find one that clearly
// costs less energy. The
// simulation's counts price each mapping independently of the cost model's.
TEST_P(SearchedEnergy, NoOtherMappingSimulatesWithClearlyLessEnergy) {
  const KindCase& kind = GetParam();
  const SocConfig soc = load(kind.arch);
  const UnitConfig& unit = unit_of(soc, kind.kind);
  const std::optional<MappingQuery> query =
      unit.mapping_query(projection(), soc.memory_context(), soc.clock_ghz);
  ASSERT_TRUE(query) << kind.kind;
  const mapping::MappingProblem& problem = *query->problem;
  const mapping::Objective energy{.kind = mapping::ObjectiveKind::kEnergy};
  const mapping::SearchResult leanest = mapping::exhaustive_search(problem, energy);
  ASSERT_TRUE(leanest.found());
  EXPECT_GT(leanest.best_cost.energy_j, 0) << kind.kind;
  const auto simulated_j = [&](const mapping::MappingPoint& point) {
    const test_support::SearchedOpRun run = test_support::run_pinned(
        kind.arch, kind.kind, projection(), problem.space().describe(point), energy);
    return total_j(*unit.op_energy(run.simulated, {soc.tech.table, soc.dram.kind}));
  };
  const double leanest_j = simulated_j(leanest.best);

  std::vector<mapping::MappingPoint> others = test_support::spread_of_valid_points(problem, 6);
  others.push_back(mapping::exhaustive_search(problem, mapping::Objective{}).best);
  for (auto& neighbour : test_support::valid_neighbours(problem, leanest.best)) {
    others.push_back(std::move(neighbour));
  }
  int compared = 0;
  for (const mapping::MappingPoint& other : others) {
    if (other == leanest.best) continue;
    const double other_j = simulated_j(other);
    EXPECT_LE(leanest_j, 1.02 * other_j)
        << kind.kind << ": " << problem.space().describe(leanest.best) << " " << leanest_j
        << " J, " << problem.space().describe(other) << " " << other_j << " J";
    ++compared;
  }
  EXPECT_GT(compared, 0) << kind.kind << " has one mapping: nothing to compare";
}

INSTANTIATE_TEST_SUITE_P(Kinds, SearchedEnergy,
                         testing::Values(KindCase{"cpu64_like.yaml", "mimd"},
                                         KindCase{"hbm_pim_like.yaml", "pim"},
                                         KindCase{"isaac_like.yaml", "crossbar"},
                                         KindCase{"plasticine_like.yaml", "dataflow"},
                                         KindCase{"mixed_soc.yaml", "simd"},
                                         KindCase{"mixed_soc.yaml", "systolic"}),
                         [](const testing::TestParamInfo<KindCase>& info) {
                           return std::string(info.param.kind);
                         });

// A wider tile and split-K move fewer bytes per MAC through the simd unit's memories at some
// cost in time: the energy objective picks a different tiling than the latency objective.
TEST(SearchedEnergy, SimdEnergyObjectiveTradesLatencyForEnergy) {
  const SocConfig soc = load("mixed_soc.yaml");
  const std::optional<MappingQuery> query =
      unit_of(soc, "simd").mapping_query(projection(), soc.memory_context(), soc.clock_ghz);
  ASSERT_TRUE(query);
  const mapping::SearchResult fastest =
      mapping::exhaustive_search(*query->problem, mapping::Objective{});
  const mapping::SearchResult leanest = mapping::exhaustive_search(
      *query->problem, mapping::Objective{.kind = mapping::ObjectiveKind::kEnergy});
  EXPECT_NE(fastest.best, leanest.best);
  EXPECT_LT(leanest.best_cost.energy_j, fastest.best_cost.energy_j);
  EXPECT_GE(leanest.best_cost.latency_s, fastest.best_cost.latency_s);
}

// Every kind answers explain through the same door: a searched mapping with a bound and energy.
TEST(ExplainUnitOption, EveryKindGivesASearchedMappingWithEnergy) {
  const SocConfig soc = load_soc_config(std::string(POLYARCH_SOURCE_DIR) +
                                        "/tests/data/explain/all_kinds_soc.yaml");
  auto policy = std::make_shared<mapping::SearchPolicy>();
  std::set<std::string> kinds;
  for (const auto& unit : soc.units) {
    mapping::UnitDecisions decisions(policy, unit->describe().dump());
    const ir::Op op = projection();
    const std::optional<mapping::UnitOption> option = explain_unit_option(
        *unit, unit->program_estimates({&op}, soc.memory_context(), soc.clock_ghz), op,
        decisions);
    ASSERT_TRUE(option) << unit->name();
    EXPECT_TRUE(option->has_bound) << unit->name();
    EXPECT_FALSE(option->mapping.empty()) << unit->name();
    EXPECT_GT(option->cost.energy_j, 0) << unit->name();
    EXPECT_EQ(option->source.rfind("searched", 0), 0u) << option->source;
    kinds.insert(option->kind);
  }
  EXPECT_EQ(kinds.size(), 6u);
}

}  // namespace
}  // namespace polyarch::archs
