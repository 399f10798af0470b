// Simulation speed of the cycle-level DRAM model (sim/memory/dram/): simulated requests per
// second for a sequential stream and for uniformly random addresses, on DDR4-3200 and HBM2E.
// Each iteration builds the system, enqueues the requests and runs until drained.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "base/random_draw.h"
#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"

namespace {

using polyarch::sim::dram::DramConfig;
using polyarch::sim::dram::DramSystem;
using polyarch::sim::dram::Request;

constexpr int64_t kRequests = 200000;
constexpr int64_t kRequestBytes = 64;

std::vector<Request> streaming_requests() {
  std::vector<Request> requests;
  for (int64_t i = 0; i < kRequests; ++i) {
    requests.push_back({.addr = i * kRequestBytes, .bytes = kRequestBytes, .arrival_cycle = 0});
  }
  return requests;
}

std::vector<Request> random_requests(const DramConfig& config) {
  std::mt19937_64 random(42);
  auto address = [&](auto& engine) {
    return polyarch::random_int(engine, 0, config.capacity_bytes() / kRequestBytes - 1);
  };
  auto is_write = [](auto& engine) { return polyarch::random_chance(engine, 0.3); };
  std::vector<Request> requests;
  for (int64_t i = 0; i < kRequests; ++i) {
    requests.push_back({.addr = address(random) * kRequestBytes,
                        .is_write = is_write(random),
                        .bytes = kRequestBytes,
                        .arrival_cycle = 0});
  }
  return requests;
}

void simulate(benchmark::State& state, DramConfig config, bool streaming) {
  config.controller.record_commands = false;
  const std::vector<Request> requests = streaming ? streaming_requests() : random_requests(config);
  double efficiency = 0;
  for (auto _ : state) {
    DramSystem system(config);
    for (const Request& request : requests) system.enqueue(request);
    system.run();
    efficiency = system.bandwidth_efficiency();
    benchmark::DoNotOptimize(system.completion_cycles().data());
  }
  state.counters["requests_per_s"] = benchmark::Counter(
      static_cast<double>(kRequests), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bandwidth_efficiency"] = efficiency;
}

void BM_Ddr4Streaming(benchmark::State& state) {
  simulate(state, polyarch::sim::dram::ddr4_3200(), true);
}
void BM_Ddr4Random(benchmark::State& state) {
  simulate(state, polyarch::sim::dram::ddr4_3200(), false);
}
void BM_Hbm2eStreaming(benchmark::State& state) {
  simulate(state, polyarch::sim::dram::hbm2e_3200(), true);
}
void BM_Hbm2eRandom(benchmark::State& state) {
  simulate(state, polyarch::sim::dram::hbm2e_3200(), false);
}

BENCHMARK(BM_Ddr4Streaming)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ddr4Random)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Hbm2eStreaming)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Hbm2eRandom)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
