// The kinds' mapping spaces as `compile --explain` and `run --search` see them through
// UnitConfig::mapping_query (archs/unit_search.h, archs/unit_explain.h): every kind prices the
// energy of a mapping with its own energy model, and that energy is what the SystemC model's
// counts give the chosen mapping.
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

// The energy the search minimises is the kind's energy model applied to the mapping's counts:
// the SystemC model, running the energy-optimal mapping, gives the same energy within 10% (the
// leakage term follows the simulated rather than the estimated latency).
TEST_P(SearchedEnergy, EnergyOptimalMappingCostsWhatTheSimulationCharges) {
  const KindCase& kind = GetParam();
  const SocConfig soc = load(kind.arch);
  const UnitConfig& unit = unit_of(soc, kind.kind);
  const std::optional<MappingQuery> query =
      unit.mapping_query(projection(), soc.memory_context(), soc.clock_ghz);
  ASSERT_TRUE(query) << kind.kind;
  const mapping::Objective energy{.kind = mapping::ObjectiveKind::kEnergy};
  const mapping::SearchResult best = mapping::exhaustive_search(*query->problem, energy);
  ASSERT_TRUE(best.found());
  EXPECT_GT(best.best_cost.energy_j, 0) << kind.kind;

  auto policy = std::make_shared<mapping::SearchPolicy>();
  policy->objective = energy;
  const test_support::SearchedOpRun run =
      test_support::run_searched(kind.arch, kind.kind, projection(), policy);
  ASSERT_EQ(run.simulated.mapping["search"]["point"],
            query->problem->space().describe(best.best));
  const double simulated_j =
      total_j(*unit.op_energy(run.simulated, {soc.tech.table, soc.dram.kind}));
  EXPECT_NEAR(best.best_cost.energy_j / simulated_j, 1.0, 0.10)
      << kind.kind << ": searched " << best.best_cost.energy_j << " J, simulated " << simulated_j
      << " J";
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
    const std::optional<mapping::UnitOption> option = explain_unit_option(
        *unit, projection(), soc.memory_context(), soc.clock_ghz, decisions);
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
