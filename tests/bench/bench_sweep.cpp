// Sweep throughput and memory on the shipped sweep configs/sweeps/systolic_shape.yaml (270
// design points x BERT-base and ResNet-50 layers = 540 simulations): the whole `polyarch
// sweep` path (plan, fork a worker per pair, SQLite commits, Pareto front, CSV exports) into a
// fresh database each iteration, with each unit's configured mapping (`--mapping fixed`) or with
// every op's mapping searched into a fresh decision cache (the default; floor: the whole sweep
// within 5 minutes on 2 cores). Counters: design points per second per core (floor 20 with
// fixed mappings), simulations per second, and peak RSS of the parent and of the largest worker
// (floor 500 MB).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>
#include <ostream>
#include <streambuf>

#include "driver/search_options.h"
#include "sweep/sweep_runner.h"

namespace {

namespace fs = std::filesystem;

// Discards the sweep's progress lines and summary.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
};

double max_rss_mb(int who) {
  rusage usage{};
  getrusage(who, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

void BM_SystolicShapeSweep(benchmark::State& state) {
  const int jobs = static_cast<int>(state.range(0));
  const bool searched = state.range(1) != 0;
  const fs::path out = fs::temp_directory_path() / ("polyarch_bench_sweep_j" + std::to_string(jobs) +
                                                    (searched ? "_searched" : "_fixed"));
  const fs::path cache = out.string() + "_cache";
  NullBuffer null_buffer;
  std::ostream null_stream(&null_buffer);
  polyarch::sweep::SweepRunOptions options;
  options.sweep_file = fs::path(POLYARCH_SOURCE_DIR) / "configs/sweeps/systolic_shape.yaml";
  options.out_dir = out;
  options.jobs = jobs;
  if (searched) {
    polyarch::driver::SearchOptions search;
    search.cache_dir = cache.string();
    options.mapping_search = polyarch::driver::search_policy(search, 0);
  }
  int64_t points = 0;
  int64_t simulations = 0;
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(out);  // a fresh database: a rerun would skip every pair
    fs::remove_all(cache);  // and a cold decision cache
    state.ResumeTiming();
    polyarch::sweep::SweepRunSummary summary =
        polyarch::sweep::run_sweep(options, null_stream, null_stream);
    if (summary.jobs_failed > 0) state.SkipWithError("some sweep points failed");
    points += summary.points;
    simulations += summary.jobs_total;
  }
  fs::remove_all(out);
  fs::remove_all(cache);
  state.SetLabel(searched ? "searched mappings" : "fixed mappings");
  // Rates over wall time divided by the worker count: per core when -j N matches the cores.
  state.counters["points_per_s_per_core"] =
      benchmark::Counter(static_cast<double>(points) / jobs, benchmark::Counter::kIsRate);
  state.counters["simulations_per_s"] =
      benchmark::Counter(static_cast<double>(simulations), benchmark::Counter::kIsRate);
  state.counters["parent_peak_rss_mb"] = max_rss_mb(RUSAGE_SELF);
  state.counters["worker_peak_rss_mb"] = max_rss_mb(RUSAGE_CHILDREN);
}
BENCHMARK(BM_SystolicShapeSweep)
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
