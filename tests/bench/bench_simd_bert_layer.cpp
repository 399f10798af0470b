// Simulation cost of one BERT-base encoder layer (workloads/kernels_transformer_layer.yaml:
// sequence 512, fused attention, norms, GELU) on configs/arch/h100_like.yaml, mapping search
// included. Floor: under 100 ms per layer.
#include <benchmark/benchmark.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"

namespace {

void BM_SimdBertBaseLayerOnH100Like(benchmark::State& state) {
  const polyarch::archs::SocConfig soc = polyarch::archs::load_soc_config(
      std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/h100_like.yaml");
  const polyarch::ir::Graph graph = polyarch::frontend::load_workload(
      std::string(POLYARCH_SOURCE_DIR) + "/workloads/kernels_transformer_layer.yaml");
  double latency_s = 0;
  for (auto _ : state) {
    polyarch::sim::RunResult result = polyarch::driver::simulate_workload(soc, graph);
    benchmark::DoNotOptimize(result);
    latency_s = static_cast<double>(result.summary.total_cycles) / (soc.clock_ghz * 1e9);
  }
  state.counters["simulated_latency_us"] = latency_s * 1e6;
  state.counters["ops"] = static_cast<double>(graph.op_count());
}
BENCHMARK(BM_SimdBertBaseLayerOnH100Like)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
