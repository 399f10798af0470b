#include "mapping/search/searchers.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "mapping/cache/unit_decisions.h"
#include "mapping/search/rng.h"
#include "tests/mapping/search_test_problem.h"

namespace polyarch::mapping {
namespace {

using test::BowlProblem;

TEST(MappingSpace, RankAndUnrankAreInverse) {
  const BowlProblem problem;
  const MappingSpace& space = problem.space();
  EXPECT_EQ(space.size(), 16 * 16 * 16 * 3);
  for (int64_t rank = 0; rank < space.size(); rank += 37) {
    EXPECT_EQ(space.rank(space.unrank(rank)), rank);
  }
  EXPECT_EQ(space.describe(space.unrank(1)), "a=0 b=0 c=0 order=y");
}

TEST(MappingSpace, ParseReadsWhatDescribeWritesInAnyOrder) {
  const BowlProblem problem;
  const MappingSpace& space = problem.space();
  for (int64_t rank = 0; rank < space.size(); rank += 41) {
    const MappingPoint point = space.unrank(rank);
    EXPECT_EQ(space.parse(space.describe(point)), point);
  }
  EXPECT_EQ(space.parse("order=z c=3 b=15 a=2"), (MappingPoint{2, 15, 3, 2}));
}

TEST(MappingSpace, ParseNamesTheUnknownMissingOrRepeatedDimension) {
  const BowlProblem problem;
  const MappingSpace& space = problem.space();
  const auto error_of = [&](const std::string& text) -> std::string {
    try {
      space.parse(text);
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput) << text;
      return error.what();
    }
    ADD_FAILURE() << "no error for " << text;
    return "";
  };
  EXPECT_NE(error_of("a=1 b=2 c=3 order=w").find("'w' is not a value of 'order'"),
            std::string::npos);
  EXPECT_NE(error_of("a=1 b=2 c=3 order=x d=4").find("no dimension 'd'"), std::string::npos);
  EXPECT_NE(error_of("a=1 b=2 order=x").find("leaves out 'c'"), std::string::npos);
  EXPECT_NE(error_of("a=1 a=2 b=2 c=3 order=x").find("'a' is given twice"), std::string::npos);
  EXPECT_NE(error_of("a=1 b c=3 order=x").find("'b' is not name=value"), std::string::npos);
}

TEST(PinnedMapping, AnOpWhoseSpaceHasItsDimensionsRunsItOthersAreSearched) {
  const BowlProblem problem;
  auto pinned = std::make_shared<SearchPolicy>();
  pinned->pinned = "order=x a=1 b=2 c=3";
  UnitDecisions decisions(pinned, "unit");
  const std::optional<Decision> decision = decisions.decide(problem, "bowl");
  ASSERT_TRUE(decision);
  EXPECT_EQ(decision->point, (MappingPoint{1, 2, 3, 0}));
  EXPECT_TRUE(decision->pinned);
  EXPECT_DOUBLE_EQ(decision->cost.latency_s, problem.evaluate({1, 2, 3, 0}).latency_s);
  EXPECT_EQ(decision_json(*pinned, *decision)["searcher"], "pinned");

  // A pin for another space's dimensions leaves this one searched: the bowl's optimum.
  auto elsewhere = std::make_shared<SearchPolicy>();
  elsewhere->pinned = "partition=rows";
  UnitDecisions searched(elsewhere, "unit");
  EXPECT_EQ(searched.decide(problem, "bowl")->point, (MappingPoint{11, 7, 3, 1}));

  // A pinned point the op cannot run (a + b > 20) is bad input, not a silent search.
  auto invalid = std::make_shared<SearchPolicy>();
  invalid->pinned = "a=15 b=15 c=0 order=x";
  UnitDecisions refused(invalid, "unit");
  EXPECT_THROW(refused.decide(problem, "bowl"), Error);
}

TEST(Objective, PowerCapMakesAPointInfeasible) {
  Objective objective = *parse_objective("edp");
  const MappingCost cost{.latency_s = 2.0, .energy_j = 10.0};
  EXPECT_DOUBLE_EQ(objective.score(cost), 20.0);
  objective.power_cap_w = 4.0;  // 10 J / 2 s = 5 W
  EXPECT_TRUE(std::isinf(objective.score(cost)));
  EXPECT_EQ(objective.key(), "edp+cap(4)");
  EXPECT_FALSE(parse_objective("speed").has_value());
  EXPECT_EQ(parse_objective("weighted:1,0")->score(cost), 2.0 / 1e-3);
}

TEST(Rng, SameSeedGivesSameDrawsAndBelowStaysInRange) {
  Rng first(42), second(42);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t draw = first.below(7);
    EXPECT_EQ(draw, second.below(7));
    EXPECT_LT(draw, 7u);
  }
  // std::mt19937_64's 10000th output is fixed by the standard: the engine is portable.
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ull);
}

TEST(ExhaustiveSearch, FindsTheOptimumAndPrunesByTheLowerBound) {
  const BowlProblem problem;
  const SearchResult result = exhaustive_search(problem, Objective{});
  EXPECT_DOUBLE_EQ(result.best_score, 1.0);
  EXPECT_EQ(problem.space().describe(result.best), "a=11 b=7 c=3 order=y");
  EXPECT_GT(result.pruned, 0);
  EXPECT_GT(result.invalid_skipped, 0);
  EXPECT_EQ(result.evaluations + result.pruned + result.invalid_skipped, problem.space().size());
}

TEST(ExhaustiveSearch, EnergyObjectivePicksADifferentPointWithoutPruning) {
  const BowlProblem problem;
  const SearchResult result = exhaustive_search(problem, *parse_objective("energy"));
  EXPECT_EQ(result.pruned, 0);
  EXPECT_EQ(problem.space().value(result.best, 0), 15);  // largest valid "a"
  EXPECT_EQ(problem.space().value(result.best, 1), 5);   // a + b <= 20
}

class HeuristicSearch : public testing::TestWithParam<std::string> {};

TEST_P(HeuristicSearch, DeterministicForASeedAndWithinBudget) {
  const BowlProblem problem;
  const SearchOptions options{.seed = 7, .max_evaluations = 300};
  const SearchResult first = run_search(GetParam(), problem, Objective{}, options);
  const SearchResult second = run_search(GetParam(), problem, Objective{}, options);
  EXPECT_EQ(first.best, second.best) << "seed 7";
  EXPECT_EQ(first.evaluations, second.evaluations);
  EXPECT_LE(first.evaluations, 300);
  ASSERT_EQ(first.evaluated.size(), second.evaluated.size());
  for (std::size_t i = 0; i < first.evaluated.size(); ++i) {
    ASSERT_EQ(first.evaluated[i].point, second.evaluated[i].point) << "evaluation " << i;
  }
}

TEST_P(HeuristicSearch, GetsCloseToTheOptimumOnTheBowl) {
  const BowlProblem problem;
  // 3000 evaluations of a 12288-point space: every searcher should land near the minimum (1.0).
  for (uint64_t seed : {1, 2, 3}) {
    const SearchResult result =
        run_search(GetParam(), problem, Objective{}, {.seed = seed, .max_evaluations = 3000});
    EXPECT_LE(result.best_score, 5.0) << GetParam() << " seed " << seed;
    EXPECT_TRUE(problem.valid(result.best));
  }
}

INSTANTIATE_TEST_SUITE_P(Searchers, HeuristicSearch,
                         testing::Values("random", "genetic", "annealing"));

}  // namespace
}  // namespace polyarch::mapping
