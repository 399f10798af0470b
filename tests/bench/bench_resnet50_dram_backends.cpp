// What the jedec DRAM backend costs a whole-network run: ResNet-50's layers
// (workloads/resnet50_layers.yaml) on configs/arch/tpu_v1_like.yaml (the simple queue) and on
// configs/arch/tpu_v1_like_jedec.yaml (the same chip with its DDR3-2133 channels in JEDEC form:
// the jedec backend). Floor: jedec at most 10x the simple backend's time.
#include <benchmark/benchmark.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"

namespace {

const polyarch::ir::Graph& resnet50() {
  static const polyarch::ir::Graph graph = polyarch::frontend::load_workload(
      std::string(POLYARCH_SOURCE_DIR) + "/workloads/resnet50_layers.yaml");
  return graph;
}

void BM_Resnet50TpuV1(benchmark::State& state, const std::string& arch_stem) {
  const polyarch::archs::SocConfig soc = polyarch::archs::load_soc_config(
      std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + arch_stem + ".yaml");
  double latency_s = 0;
  for (auto _ : state) {
    latency_s = polyarch::driver::simulate_workload(soc, resnet50()).summary.latency_s;
    benchmark::DoNotOptimize(latency_s);
  }
  state.counters["simulated_latency_ms"] = latency_s * 1e3;
}

BENCHMARK_CAPTURE(BM_Resnet50TpuV1, simple, std::string("tpu_v1_like"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Resnet50TpuV1, jedec, std::string("tpu_v1_like_jedec"))
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
