#include <algorithm>

#include "mapping/search/random_point.h"
#include "mapping/search/searchers.h"

namespace polyarch::mapping {

namespace {

constexpr std::size_t kPopulation = 24;
constexpr int kTournament = 3;

struct Individual {
  MappingPoint point;
  double score = 0;
};

const Individual& tournament(const std::vector<Individual>& population, Rng& rng) {
  const Individual* best = &population[rng.below(population.size())];
  for (int round = 1; round < kTournament; ++round) {
    const Individual& other = population[rng.below(population.size())];
    if (other.score < best->score) best = &other;
  }
  return *best;
}

MappingPoint offspring(const MappingPoint& mother, const MappingPoint& father,
                       const MappingSpace& space, Rng& rng) {
  MappingPoint child(mother.size());
  // One mutation per child on average, whatever the number of dimensions.
  const double mutation = 1.0 / static_cast<double>(std::max<std::size_t>(1, mother.size()));
  for (std::size_t i = 0; i < child.size(); ++i) {
    child[i] = rng.chance(0.5) ? mother[i] : father[i];
    if (rng.chance(mutation)) {
      child[i] = static_cast<uint32_t>(rng.below(space.dimensions()[i].values.size()));
    }
  }
  return child;
}

}  // namespace

SearchResult genetic_search(const MappingProblem& problem, const Objective& objective,
                            const SearchOptions& options) {
  Evaluator evaluator(problem, objective, options);
  Rng rng(options.seed);
  std::vector<Individual> population;
  for (int attempt = 0; population.size() < kPopulation && attempt < 100; ++attempt) {
    std::optional<MappingPoint> point = random_valid_point(problem, rng);
    if (!point) break;
    std::optional<double> score = evaluator.score(*point);
    if (!score) break;
    population.push_back({std::move(*point), *score});
  }
  if (population.empty()) return evaluator.take();
  // Generations until the budget is spent; a generation of only already-seen children is cheap,
  // so the generation count is bounded too.
  for (int generation = 0; generation < 10000 && !evaluator.exhausted(); ++generation) {
    std::vector<Individual> next;
    next.push_back(*std::min_element(
        population.begin(), population.end(),
        [](const Individual& a, const Individual& b) { return a.score < b.score; }));
    while (next.size() < population.size()) {
      MappingPoint child = offspring(tournament(population, rng).point,
                                     tournament(population, rng).point, problem.space(), rng);
      std::optional<double> score = evaluator.score(child);
      if (!score) break;
      next.push_back({std::move(child), *score});
    }
    population = std::move(next);
  }
  return evaluator.take();
}

}  // namespace polyarch::mapping
