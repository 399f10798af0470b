// What the jedec DRAM backend costs a whole-network run: ResNet-50's layers
// (workloads/resnet50_layers.yaml) on configs/arch/tpu_v1_like.yaml as shipped (the simple
// queue) and with its two DDR3-2133 channels described in JEDEC form (the jedec backend).
// Floor: jedec at most 10x the simple backend's time.
#include <benchmark/benchmark.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"
#include "sim/memory/jedec_dram_spec.h"

namespace {

// TPU v1's DRAM: two 64-bit DDR3-2133 channels (34 GB/s; Jouppi et al., ISCA 2017), with
// DDR3-2133N timings from JESD79-3F (14-14-14 at tCK 0.938 ns; tRFC 350 ns and tREFI 7.8 us
// of an 8 Gb device; tFAW 25 ns and tRRD 5 ns of a 1 KB page).
constexpr const char* kDdr3Map = R"(
standard: ddr3
organization: {channels: 2, ranks: 1, bank_groups: 1, banks_per_group: 8, rows: 65536,
               columns: 1024, device_width: 8, bus_width: 64, burst_length: 8,
               transfers_per_clock: 2}
timing: {tCK_ns: 0.938, CL: 14, CWL: 10, tRCD: 14, tRP: 14, tRAS: 36, tRFC: 374, tREFI: 8316,
         tRRD_S: 6, tRRD_L: 6, tFAW: 27, tCCD_S: 4, tCCD_L: 4, tWR: 16, tWTR_S: 8, tWTR_L: 8,
         tRTP: 8, tRTRS: 2}
)";

const polyarch::ir::Graph& resnet50() {
  static const polyarch::ir::Graph graph = polyarch::frontend::load_workload(
      std::string(POLYARCH_SOURCE_DIR) + "/workloads/resnet50_layers.yaml");
  return graph;
}

polyarch::archs::SocConfig tpu_v1_like(bool jedec) {
  polyarch::archs::SocConfig soc = polyarch::archs::load_soc_config(
      std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/tpu_v1_like.yaml");
  if (jedec) {
    soc.dram = polyarch::sim::read_jedec_dram_spec(
        polyarch::parse_config_text(kDdr3Map, "ddr3_2133.yaml"));
  }
  return soc;
}

void BM_Resnet50TpuV1(benchmark::State& state, bool jedec) {
  const polyarch::archs::SocConfig soc = tpu_v1_like(jedec);
  double latency_s = 0;
  for (auto _ : state) {
    latency_s = polyarch::driver::simulate_workload(soc, resnet50()).summary.latency_s;
    benchmark::DoNotOptimize(latency_s);
  }
  state.counters["simulated_latency_ms"] = latency_s * 1e3;
}

BENCHMARK_CAPTURE(BM_Resnet50TpuV1, simple, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Resnet50TpuV1, jedec, true)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
