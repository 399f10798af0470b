#pragma once
// The one door through which every searcher evaluates points: it checks validity first (invalid
// points cost nothing and score +inf), memoises by rank so a revisited point is not paid twice,
// counts evaluations against the budget, keeps the best point and the history of improvements
// (for "evaluations to reach within x% of the optimum"), and records every evaluation so a
// learned ranker can train on them.
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

#include "mapping/space/mapping_problem.h"
#include "mapping/space/objective.h"

namespace polyarch::mapping {

struct SearchOptions {
  uint64_t seed = 1;
  int64_t max_evaluations = 2000;  // distinct valid points the cost model is asked about
};

struct Improvement {
  int64_t evaluation = 0;  // 1-based evaluation count at which the best improved
  double score = 0;
};

struct Evaluation {
  MappingPoint point;
  double score = 0;
};

struct SearchResult {
  MappingPoint best;
  MappingCost best_cost;
  double best_score = std::numeric_limits<double>::infinity();
  int64_t evaluations = 0;
  int64_t invalid_skipped = 0;
  int64_t pruned = 0;  // points exhaustive search skipped by their lower bound
  std::vector<Improvement> history;
  std::vector<Evaluation> evaluated;  // in evaluation order

  bool found() const { return !best.empty(); }
  // Evaluations needed to reach a score within `fraction` of `target` (e.g. 0.05); -1 if never.
  int64_t evaluations_to_reach(double target, double fraction) const;
};

class Evaluator {
 public:
  Evaluator(const MappingProblem& problem, const Objective& objective, SearchOptions options)
      : problem_(problem), objective_(objective), options_(options) {}

  // The point's score (+inf when invalid or over a constraint); nullopt when the budget is spent
  // and the point was not seen before.
  std::optional<double> score(const MappingPoint& point);
  bool exhausted() const { return result_.evaluations >= options_.max_evaluations; }
  const MappingSpace& space() const { return problem_.space(); }
  const MappingProblem& problem() const { return problem_; }
  const Objective& objective() const { return objective_; }
  double best_score() const { return result_.best_score; }
  SearchResult& result() { return result_; }
  SearchResult take() { return std::move(result_); }

 private:
  const MappingProblem& problem_;
  const Objective& objective_;
  SearchOptions options_;
  std::unordered_map<int64_t, double> seen_;
  SearchResult result_;
};

}  // namespace polyarch::mapping
