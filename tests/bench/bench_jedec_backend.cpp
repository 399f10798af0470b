// Simulation speed of the jedec DRAM backend (sim/memory/jedec_backend.h) as a run uses it:
// requests arrive one at a time, each when the previous one's last column command left (a DMA
// engine streaming), and are served before the next. Counted in 64-byte requests (one burst on
// DDR4, two 32-byte bursts on two pseudo-channels on HBM2E) per second of one core; floor: 2 M
// requests/s.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "base/random_draw.h"
#include "sim/memory/dram/presets.h"
#include "sim/memory/jedec_backend.h"

namespace {

using polyarch::sim::AddressRange;
using polyarch::sim::JedecBackend;
using polyarch::sim::dram::DramConfig;

constexpr int64_t kRequests = 200000;
constexpr int64_t kRequestBytes = 64;

std::vector<int64_t> addresses(const DramConfig& config, bool streaming) {
  std::mt19937_64 random(42);
  auto burst = [&](auto& engine) {
    return polyarch::random_int(engine, 0, config.capacity_bytes() / kRequestBytes - 1);
  };
  std::vector<int64_t> list;
  for (int64_t i = 0; i < kRequests; ++i) {
    list.push_back(streaming ? i * kRequestBytes : burst(random) * kRequestBytes);
  }
  return list;
}

void serve(benchmark::State& state, const DramConfig& config, bool streaming) {
  const std::vector<int64_t> list = addresses(config, streaming);
  int64_t last_cycle = 0;
  for (auto _ : state) {
    JedecBackend backend(config, false);
    int64_t arrival = 0;
    for (int64_t address : list) {
      const AddressRange piece{address, kRequestBytes};
      arrival = backend.serve({&piece, 1}, false, arrival).last_command_cycle + 1;
    }
    last_cycle = arrival;
    benchmark::DoNotOptimize(last_cycle);
  }
  state.counters["requests_per_s"] = benchmark::Counter(
      static_cast<double>(kRequests), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["dram_cycles"] = static_cast<double>(last_cycle);
}

void BM_JedecBackendDdr4Streaming(benchmark::State& state) {
  serve(state, polyarch::sim::dram::ddr4_3200(), true);
}
void BM_JedecBackendDdr4Random(benchmark::State& state) {
  serve(state, polyarch::sim::dram::ddr4_3200(), false);
}
void BM_JedecBackendHbm2eStreaming(benchmark::State& state) {
  serve(state, polyarch::sim::dram::hbm2e_3200(), true);
}
void BM_JedecBackendHbm2eRandom(benchmark::State& state) {
  serve(state, polyarch::sim::dram::hbm2e_3200(), false);
}

BENCHMARK(BM_JedecBackendDdr4Streaming)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JedecBackendDdr4Random)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JedecBackendHbm2eStreaming)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JedecBackendHbm2eRandom)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
