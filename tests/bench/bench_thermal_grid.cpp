// Cost of a HotSpot-style grid-mode thermal run (sim/thermal/grid_*): a 20-block floorplan (5 x 4
// blocks of 2 x 1.5 mm) on HotSpot's default 64 x 64 grid (4 layers of 4,096 cells and 12
// package nodes) over a 10,000-sample power trace, HotSpot's default package. The whole run is
// timed (network, band Cholesky, steady state, modal set-up, 10,000 intervals); the target
// is one second. HotSpot 7's own grid transient (RK4) takes seconds per sample on this grid.
#include <benchmark/benchmark.h>

#include <random>
#include <sstream>

#include "base/random_draw.h"
#include "sim/thermal/grid_simulation.h"

namespace {

using namespace polyarch::sim::thermal;

constexpr int kColumns = 5;
constexpr int kRows = 4;
constexpr int kSamples = 10000;

Floorplan tiled_floorplan() {
  std::ostringstream text;
  for (int row = 0; row < kRows; ++row) {
    for (int column = 0; column < kColumns; ++column) {
      text << "b" << row << "_" << column << " 0.002 0.0015 " << 0.002 * column << " "
           << 0.0015 * row << "\n";
    }
  }
  return parse_floorplan(text.str(), "bench.flp");
}

PowerTrace random_trace(int blocks) {
  std::mt19937 random(2026);
  auto watts = [&](auto& engine) { return polyarch::random_real(engine, 0.2, 4.0); };
  PowerTrace trace;
  trace.block_count = blocks;
  trace.watts.resize(static_cast<std::size_t>(blocks) * kSamples);
  for (double& value : trace.watts) value = watts(random);
  return trace;
}

void run_grid(benchmark::State& state, InitialTemperature initial) {
  const Floorplan floorplan = tiled_floorplan();
  const PowerTrace trace = random_trace(floorplan.block_count());
  const PackageConfig package;
  for (auto _ : state) {
    BlockThermalResult result =
        simulate_grid_thermal(floorplan, trace, package, initial, GridSize{64, 64});
    benchmark::DoNotOptimize(result.transient_k.data());
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}

void BM_GridTransient64x64FromSteady10kSamples(benchmark::State& state) {
  run_grid(state, InitialTemperature::kSteady);
}
BENCHMARK(BM_GridTransient64x64FromSteady10kSamples)->Unit(benchmark::kMillisecond);

void BM_GridTransient64x64FromAmbient10kSamples(benchmark::State& state) {
  run_grid(state, InitialTemperature::kAmbient);
}
BENCHMARK(BM_GridTransient64x64FromAmbient10kSamples)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
