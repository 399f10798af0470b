#include "mapping/search/ridge_ranker.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/error.h"
#include "tests/mapping/search_test_problem.h"

namespace polyarch::mapping {
namespace {

TEST(RidgeRanker, RecoversALogLinearCostAndOrdersByIt) {
  std::vector<std::vector<double>> features;
  std::vector<double> scores;
  for (int a = 0; a < 5; ++a) {
    for (int b = 0; b < 5; ++b) {
      features.push_back({static_cast<double>(a), static_cast<double>(b)});
      scores.push_back(std::exp(0.5 * a - 0.25 * b + 1.0));
    }
  }
  RidgeRanker ranker(1e-9);
  ranker.fit(features, scores);
  EXPECT_NEAR(ranker.predict({2.0, 3.0}), 0.5 * 2 - 0.25 * 3 + 1.0, 1e-6);
  EXPECT_LT(ranker.predict({0.0, 4.0}), ranker.predict({4.0, 0.0}));
}

TEST(RidgeRanker, JsonRoundTripPredictsTheSameAndMalformedTextIsRejected) {
  RidgeRanker ranker;
  ranker.fit({{1, 2}, {2, 1}, {3, 5}, {0, 1}}, {1.0, 2.0, 4.0, 0.5});
  const RidgeRanker loaded = RidgeRanker::from_json(ranker.to_json());
  EXPECT_DOUBLE_EQ(loaded.predict({1.5, 2.5}), ranker.predict({1.5, 2.5}));
  EXPECT_THROW(RidgeRanker::from_json("{\"schema\": 3}"), polyarch::Error);
  EXPECT_THROW(RidgeRanker::from_json("not json"), polyarch::Error);
}

TEST(RankedSearch, DeterministicForASeedAndFindsTheBowlOptimum) {
  const test::BowlProblem problem;
  RidgeRanker first_ranker, second_ranker;
  const SearchOptions options{.seed = 3, .max_evaluations = 400};
  const SearchResult first = ranked_search(problem, Objective{}, options, first_ranker);
  const SearchResult second = ranked_search(problem, Objective{}, options, second_ranker);
  EXPECT_EQ(first.best, second.best);
  EXPECT_EQ(first.evaluations, 400);
  // A linear model of a bowl still points the search at the right region.
  EXPECT_LE(first.best_score, 5.0);
}

}  // namespace
}  // namespace polyarch::mapping
