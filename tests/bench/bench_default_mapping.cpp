// Interactive speed of a default run, whose mappings the compiler searches: ResNet-50's layers
// and BERT-base's GEMMs through the whole driver (load, compile, search every op's mapping,
// schedule, simulate, physics) on a systolic, a GPU-like and a mixed SoC. Cold: no decision
// cache, every op searched. Warm: every decision read from a cache filled before timing.
// Floors: 2 s warm and 20 s cold per network on one core.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "driver/run.h"
#include "driver/search_options.h"

namespace {

namespace fs = std::filesystem;

const char* const kArchs[] = {"tpu_v1_like", "h100_like", "mixed_soc"};
const char* const kWorkloads[] = {"resnet50_layers", "bert_base_gemms"};

void BM_DefaultMappedRun(benchmark::State& state) {
  const std::string arch = kArchs[state.range(0)];
  const std::string workload = kWorkloads[state.range(1)];
  const bool warm = state.range(2) != 0;
  const fs::path cache = fs::temp_directory_path() / ("polyarch_bench_mapping_" + arch);
  fs::remove_all(cache);
  polyarch::driver::SearchOptions search;
  if (warm) {
    search.cache_dir = cache.string();
  } else {
    search.no_cache = true;
  }
  polyarch::driver::RunRequest request;
  request.arch_path = fs::path(POLYARCH_SOURCE_DIR) / "configs/arch" / (arch + ".yaml");
  request.workload_path = fs::path(POLYARCH_SOURCE_DIR) / "workloads" / (workload + ".yaml");
  request.mapping_search = polyarch::driver::search_policy(search, request.seed);
  if (warm) polyarch::driver::run(request);  // fills the cache
  double latency_s = 0;
  for (auto _ : state) {
    latency_s = polyarch::driver::run(request).summary.latency_s;
    benchmark::DoNotOptimize(latency_s);
  }
  fs::remove_all(cache);
  state.SetLabel(arch + " " + workload + (warm ? " warm" : " cold"));
  state.counters["simulated_latency_s"] = latency_s;
}
BENCHMARK(BM_DefaultMappedRun)
    ->ArgsProduct({{0, 1, 2}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
