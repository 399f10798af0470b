#pragma once
// A learned cost model that orders candidates: ridge regression of log(score) on a problem's
// mapping features (MappingProblem::features), trained on the evaluations a search has made and
// persisted as JSON so a later compile starts from it. Features are standardised (mean 0,
// variance 1) before fitting, so one penalty suits features of any scale.
#include <string>
#include <vector>

#include "mapping/search/evaluator.h"

namespace polyarch::mapping {

class RidgeRanker {
 public:
  explicit RidgeRanker(double penalty = 1e-2) : penalty_(penalty) {}

  // Fits on (features, log score) pairs; infinite scores are left out. Needs >= 2 samples.
  void fit(const std::vector<std::vector<double>>& features, const std::vector<double>& scores);
  bool trained() const { return !weights_.empty(); }
  // Predicted log score; lower is better.
  double predict(const std::vector<double>& features) const;

  std::string to_json() const;
  // Throws a runtime error on malformed text.
  static RidgeRanker from_json(const std::string& text);

 private:
  double penalty_;
  std::vector<double> mean_, scale_, weights_;  // weights_[0] is the intercept
};

// A search that spends its budget where the ranker points: a few random evaluations, then rounds
// of fitting the ranker on everything evaluated so far and evaluating the candidates it predicts
// best (all unevaluated valid points of a small space, a random sample of a large one).
// `ranker` may come trained from an earlier search and is refitted as the search goes.
SearchResult ranked_search(const MappingProblem& problem, const Objective& objective,
                           const SearchOptions& options, RidgeRanker& ranker);

}  // namespace polyarch::mapping
