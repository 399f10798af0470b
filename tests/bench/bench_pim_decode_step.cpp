// Simulation cost of one Llama-2-7B decode step (32 layers, kv_len 2048;
// workloads/models/llama2_7b_decode.yaml) on configs/arch/hbm_pim_like.yaml: the list scheduler
// placing every op on the PIM unit or the host, and the simulation. Floor: under 200 ms.
// Iterations after the first reuse the simd mapper's tiling cache; the first (cold) run is
// reported by `time polyarch run` in the issue note.
#include <benchmark/benchmark.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"

namespace {

void BM_PimLlama7bDecodeStep(benchmark::State& state) {
  const polyarch::archs::SocConfig soc = polyarch::archs::load_soc_config(
      std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/hbm_pim_like.yaml");
  const polyarch::ir::Graph graph = polyarch::frontend::load_workload(
      std::string(POLYARCH_SOURCE_DIR) + "/workloads/models/llama2_7b_decode.yaml");
  double latency_s = 0;
  for (auto _ : state) {
    polyarch::sim::RunResult result = polyarch::driver::simulate_workload(soc, graph);
    benchmark::DoNotOptimize(result);
    latency_s = static_cast<double>(result.summary.total_cycles) / (soc.clock_ghz * 1e9);
  }
  state.counters["simulated_latency_ms"] = latency_s * 1e3;
  state.counters["ops"] = static_cast<double>(graph.op_count());
}
BENCHMARK(BM_PimLlama7bDecodeStep)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
