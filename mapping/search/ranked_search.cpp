#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "mapping/search/random_point.h"
#include "mapping/search/ridge_ranker.h"

namespace polyarch::mapping {

namespace {

constexpr int64_t kEnumerateLimit = 50000;  // spaces up to this size are ranked whole
constexpr int64_t kSampledPool = 2000;
constexpr int64_t kWarmup = 16;  // random evaluations before the first fit (untrained ranker)
constexpr int64_t kBatch = 8;    // evaluations between refits

struct Candidate {
  MappingPoint point;
  std::vector<double> features;
  int64_t rank = 0;
};

std::vector<Candidate> candidate_pool(const MappingProblem& problem, Rng& rng) {
  const MappingSpace& space = problem.space();
  std::vector<Candidate> pool;
  auto add = [&](MappingPoint point) {
    if (!problem.valid(point)) return;
    const int64_t rank = space.rank(point);
    std::vector<double> features = problem.features(point);
    pool.push_back({std::move(point), std::move(features), rank});
  };
  if (space.size() <= kEnumerateLimit) {
    for (int64_t rank = 0; rank < space.size(); ++rank) add(space.unrank(rank));
  } else {
    for (int64_t draw = 0; draw < kSampledPool; ++draw) add(random_point(space, rng));
  }
  return pool;
}

void refit(RidgeRanker& ranker, const MappingProblem& problem, const SearchResult& result) {
  std::vector<std::vector<double>> features;
  std::vector<double> scores;
  for (const Evaluation& evaluation : result.evaluated) {
    features.push_back(problem.features(evaluation.point));
    scores.push_back(evaluation.score);
  }
  ranker.fit(features, scores);
}

}  // namespace

SearchResult ranked_search(const MappingProblem& problem, const Objective& objective,
                           const SearchOptions& options, RidgeRanker& ranker) {
  Evaluator evaluator(problem, objective, options);
  Rng rng(options.seed);
  std::vector<Candidate> pool = candidate_pool(problem, rng);
  std::unordered_set<int64_t> done;
  auto evaluate = [&](const Candidate& candidate) {
    done.insert(candidate.rank);
    return evaluator.score(candidate.point).has_value();
  };
  if (!ranker.trained()) {
    for (int64_t i = 0; i < kWarmup && !pool.empty() && !evaluator.exhausted(); ++i) {
      evaluate(pool[rng.below(pool.size())]);
    }
    refit(ranker, problem, evaluator.result());
  }
  while (!evaluator.exhausted() && done.size() < pool.size()) {
    std::vector<std::pair<double, std::size_t>> order;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      if (!done.count(pool[i].rank)) order.push_back({ranker.predict(pool[i].features), i});
    }
    const std::size_t take = std::min<std::size_t>(kBatch, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(take),
                      order.end());
    for (std::size_t i = 0; i < take && !evaluator.exhausted(); ++i) {
      evaluate(pool[order[i].second]);
    }
    refit(ranker, problem, evaluator.result());
  }
  return evaluator.take();
}

}  // namespace polyarch::mapping
