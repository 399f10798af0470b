#pragma once
// The searchers over a MappingProblem. All are deterministic for SearchOptions::seed and stop
// after max_evaluations distinct valid evaluations (exhaustive ignores the budget and visits the
// whole space). Choosing: exhaustive for spaces up to ~10^5 points, else annealing or genetic
// (neighbourhood-structured spaces) with random sampling as the baseline.
#include <string>
#include <vector>

#include "mapping/search/evaluator.h"

namespace polyarch::mapping {

// Every point in rank order; with a latency objective, a point whose latency lower bound cannot
// beat the best so far is pruned without evaluation.
SearchResult exhaustive_search(const MappingProblem& problem, const Objective& objective);

// Uniform draws without replacement, invalid points redrawn.
SearchResult random_search(const MappingProblem& problem, const Objective& objective,
                           const SearchOptions& options);

// Tournament selection, uniform crossover, per-gene mutation, one elite per generation.
SearchResult genetic_search(const MappingProblem& problem, const Objective& objective,
                            const SearchOptions& options);

// Simulated annealing: neighbours change one dimension by one step (or, rarely, to any value),
// acceptance on the relative score change, geometric cooling over the budget.
SearchResult annealing_search(const MappingProblem& problem, const Objective& objective,
                              const SearchOptions& options);

// Runs one searcher by name: "exhaustive", "random", "genetic", "annealing", or "ranked" (the
// learned-ranker search of ridge_ranker.h with a fresh ranker).
SearchResult run_search(const std::string& searcher, const MappingProblem& problem,
                        const Objective& objective, const SearchOptions& options);

// The names run_search takes, in that order (for argument checking and help texts).
const std::vector<std::string>& searcher_names();

}  // namespace polyarch::mapping
