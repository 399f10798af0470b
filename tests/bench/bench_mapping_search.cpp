// Mapping search speed: systolic cost-model evaluations per second on one core
// (floor: 100 000/s), and how fast each searcher reaches a mapping within 5% of the exhaustive
// optimum on ResNet-50 and BERT-base layers. Counters: evals_to_5pct (the search's evaluations
// until its best was within 5%; -1 if never within the budget), best_over_optimum.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "archs/crossbar/crossbar_space.h"
#include "archs/crossbar/kind.h"
#include "archs/dataflow/dataflow_space.h"
#include "archs/dataflow/kind.h"
#include "archs/mimd/kind.h"
#include "archs/mimd/mimd_space.h"
#include "archs/pim/kind.h"
#include "archs/pim/pim_space.h"
#include "archs/registry.h"
#include "archs/soc/soc_config.h"
#include "archs/systolic/mapper.h"
#include "mapping/search/ridge_ranker.h"
#include "mapping/search/searchers.h"

namespace {

using polyarch::archs::systolic::Dataflow;
using polyarch::archs::systolic::SystolicMappingEnv;
using polyarch::archs::systolic::SystolicMappingProblem;
using polyarch::archs::systolic::SystolicParams;
namespace ir = polyarch::ir;
namespace mapping = polyarch::mapping;

SystolicParams edge_array() {
  SystolicParams params;
  params.name = "npu";
  params.rows = 32;
  params.cols = 32;
  params.dataflow = Dataflow::kOutputStationary;
  params.buffers = {.ifmap_kib = 128, .filter_kib = 128, .ofmap_kib = 64, .double_buffered = true};
  return params;
}

SystolicMappingEnv env() {
  static const polyarch::sim::TechTable tech = polyarch::archs::resolve_tech("28nm").table;
  return {.clock_ghz = 1.0,
          .dram = {.dram_bytes_per_second = 16e9, .dram_latency_s = 100e-9},
          .tech = &tech,
          .dram_kind = "ddr4"};
}

ir::Op layer(int index) {
  ir::Op op;
  switch (index) {
    case 0:
      op.name = "resnet50_conv3_3x3";
      op.attrs = ir::Conv2dAttrs{
          .n = 1, .c = 128, .h = 28, .w = 28, .k = 128, .r = 3, .s = 3, .pad_h = 1, .pad_w = 1};
      break;
    case 1:
      op.name = "resnet50_conv1_7x7";
      op.attrs = ir::Conv2dAttrs{.n = 1,
                                 .c = 3,
                                 .h = 224,
                                 .w = 224,
                                 .k = 64,
                                 .r = 7,
                                 .s = 7,
                                 .stride_h = 2,
                                 .stride_w = 2,
                                 .pad_h = 3,
                                 .pad_w = 3};
      break;
    case 2:
      op.name = "bert_ffn1";
      op.attrs = ir::GemmAttrs{.m = 512, .n = 3072, .k = 768};
      break;
    default:
      op.name = "bert_qkv";
      op.attrs = ir::GemmAttrs{.m = 512, .n = 768, .k = 768};
      break;
  }
  return op;
}

void BM_SystolicCostModelEvaluations(benchmark::State& state) {
  const SystolicMappingProblem problem(edge_array(), layer(static_cast<int>(state.range(0))),
                                       env());
  std::vector<mapping::MappingPoint> points;
  for (int64_t rank = 0; rank < problem.space().size(); ++rank) {
    mapping::MappingPoint point = problem.space().unrank(rank);
    if (problem.valid(point)) points.push_back(std::move(point));
  }
  std::size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(problem.evaluate(points[next]));
    next = next + 1 == points.size() ? 0 : next + 1;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(layer(static_cast<int>(state.range(0))).name);
}
BENCHMARK(BM_SystolicCostModelEvaluations)->DenseRange(0, 3);

// Evaluations per second of `problem`'s cost model, cycling over its valid points.
void evaluate_valid_points(benchmark::State& state, const mapping::MappingProblem& problem,
                           const std::string& label) {
  std::vector<mapping::MappingPoint> points;
  for (int64_t rank = 0; rank < problem.space().size(); ++rank) {
    mapping::MappingPoint point = problem.space().unrank(rank);
    if (problem.valid(point)) points.push_back(std::move(point));
  }
  std::size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(problem.evaluate(points[next]));
    next = next + 1 == points.size() ? 0 : next + 1;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["valid_points"] = static_cast<double>(points.size());
  state.SetLabel(label);
}

polyarch::archs::SocConfig shipped(const std::string& file) {
  return polyarch::archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" +
                                          file);
}

template <typename Config>
const Config& unit_of(const polyarch::archs::SocConfig& soc) {
  for (const auto& unit : soc.units) {
    if (const auto* config = dynamic_cast<const Config*>(unit.get())) return *config;
  }
  throw std::runtime_error(soc.name + ": no unit of the benchmarked kind");
}

polyarch::sim::MemoryView memory_of(const polyarch::archs::SocConfig& soc, double clock_ghz) {
  const polyarch::archs::MemoryContext memory = soc.memory_context();
  return polyarch::sim::memory_view(memory.dram_bytes_per_second, memory.dram_latency_s,
                                    clock_ghz);
}

// The other kinds' spaces on BERT-base GEMMs (decode GEMV for pim) on shipped units.
void BM_MimdCostModelEvaluations(benchmark::State& state) {
  const auto soc = shipped("cpu64_like.yaml");
  const auto& params = unit_of<polyarch::archs::mimd::MimdUnitConfig>(soc).params();
  const double clock_ghz = params.clock_ghz.value_or(soc.clock_ghz);
  const polyarch::archs::mimd::MimdGemmMappingProblem problem(
      params, layer(2), memory_of(soc, clock_ghz), clock_ghz);
  evaluate_valid_points(state, problem, "cpu64_like bert_ffn1");
}
BENCHMARK(BM_MimdCostModelEvaluations);

void BM_PimCostModelEvaluations(benchmark::State& state) {
  const auto soc = shipped("hbm_pim_like.yaml");
  ir::Op gemv;
  gemv.name = "decode_gemv";
  gemv.attrs = ir::GemmAttrs{.m = 1, .n = 4096, .k = 4096};
  gemv.dtype = ir::DType::kFp16;
  const polyarch::archs::pim::PimGemmMappingProblem problem(
      unit_of<polyarch::archs::pim::PimUnitConfig>(soc).params(), gemv);
  evaluate_valid_points(state, problem, "hbm_pim_like gemv 1x4096x4096");
}
BENCHMARK(BM_PimCostModelEvaluations);

void BM_CrossbarCostModelEvaluations(benchmark::State& state) {
  const auto soc = shipped("isaac_like.yaml");
  const polyarch::archs::MemoryContext memory = soc.memory_context();
  const polyarch::archs::crossbar::CrossbarMappingProblem problem(
      unit_of<polyarch::archs::crossbar::CrossbarUnitConfig>(soc).params(), layer(3),
      {memory.dram_bytes_per_second, memory.dram_latency_s});
  evaluate_valid_points(state, problem, "isaac_like bert_qkv");
}
BENCHMARK(BM_CrossbarCostModelEvaluations);

// Placements are cached by the unit's MappingCache (the first pass over the points places
// them), so this is the steady rate a search sees on a model's repeated shapes.
void BM_DataflowCostModelEvaluations(benchmark::State& state) {
  const auto soc = shipped("plasticine_like.yaml");
  const auto& params = unit_of<polyarch::archs::dataflow::DataflowUnitConfig>(soc).params();
  const double clock_ghz = params.clock_ghz.value_or(soc.clock_ghz);
  const polyarch::archs::dataflow::DataflowGemmMappingProblem problem(
      params, layer(3), std::make_shared<polyarch::archs::dataflow::MappingCache>(),
      memory_of(soc, clock_ghz), clock_ghz);
  evaluate_valid_points(state, problem, "plasticine_like bert_qkv");
}
BENCHMARK(BM_DataflowCostModelEvaluations);

void BM_SearchToWithinFivePercent(benchmark::State& state, std::string searcher) {
  const ir::Op op = layer(static_cast<int>(state.range(0)));
  const SystolicMappingProblem problem(edge_array(), op, env());
  const double optimum = mapping::exhaustive_search(problem, mapping::Objective{}).best_score;
  mapping::SearchResult result;
  uint64_t seed = 1;
  for (auto _ : state) {
    result = mapping::run_search(searcher, problem, mapping::Objective{},
                                 {.seed = seed, .max_evaluations = 300});
  }
  state.counters["evals_to_5pct"] = static_cast<double>(result.evaluations_to_reach(optimum, 0.05));
  state.counters["best_over_optimum"] = result.best_score / optimum;
  state.counters["evaluations"] = static_cast<double>(result.evaluations);
  state.SetLabel(op.name);
}
BENCHMARK_CAPTURE(BM_SearchToWithinFivePercent, exhaustive, std::string("exhaustive"))
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchToWithinFivePercent, random, std::string("random"))
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchToWithinFivePercent, genetic, std::string("genetic"))
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchToWithinFivePercent, annealing, std::string("annealing"))
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond);

// Learned-ranker savings: mean evaluations (over 10 seeds) until a search's best is within 1% of
// the exhaustive optimum: random sampling, the ranked search with a fresh ranker, and with a
// ranker trained on another layer's search (persisted to JSON and loaded back).
void BM_RankerSavings(benchmark::State& state) {
  const ir::Op op = layer(static_cast<int>(state.range(0)));
  const SystolicMappingProblem problem(edge_array(), op, env());
  const int64_t budget = problem.space().size();
  const double optimum = mapping::exhaustive_search(problem, mapping::Objective{}).best_score;
  // The warm ranker learns on a different layer (the next one in the list).
  const SystolicMappingProblem other(edge_array(),
                                     layer((static_cast<int>(state.range(0)) + 1) % 4), env());
  mapping::RidgeRanker trained;
  mapping::ranked_search(other, mapping::Objective{}, {.seed = 99, .max_evaluations = 200},
                         trained);
  const std::string persisted = trained.to_json();
  double random_evals = 0, ranked_evals = 0, warm_evals = 0;
  constexpr int kSeeds = 10;
  for (auto _ : state) {
    random_evals = ranked_evals = warm_evals = 0;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      const mapping::SearchOptions options{.seed = seed, .max_evaluations = budget};
      random_evals +=
          static_cast<double>(mapping::random_search(problem, mapping::Objective{}, options)
                                  .evaluations_to_reach(optimum, 0.01));
      mapping::RidgeRanker fresh;
      ranked_evals +=
          static_cast<double>(mapping::ranked_search(problem, mapping::Objective{}, options, fresh)
                                  .evaluations_to_reach(optimum, 0.01));
      mapping::RidgeRanker warm = mapping::RidgeRanker::from_json(persisted);
      warm_evals +=
          static_cast<double>(mapping::ranked_search(problem, mapping::Objective{}, options, warm)
                                  .evaluations_to_reach(optimum, 0.01));
    }
  }
  state.counters["random_evals_to_1pct"] = random_evals / kSeeds;
  state.counters["ranked_evals_to_1pct"] = ranked_evals / kSeeds;
  state.counters["warm_ranked_evals_to_1pct"] = warm_evals / kSeeds;
  state.SetLabel(op.name);
}
BENCHMARK(BM_RankerSavings)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
