// Cost of a HotSpot-style block-mode thermal run (sim/thermal/): a 20-block floorplan (5 x 4
// blocks of 2 x 1.5 mm) over a 10,000-sample power trace, HotSpot's default package. The whole
// run is timed (network, steady state, transient propagator set-up, 10,000 intervals), and the
// set-up alone.
#include <benchmark/benchmark.h>

#include <random>
#include <sstream>

#include "base/random_draw.h"
#include "sim/thermal/block_model.h"
#include "sim/thermal/block_simulation.h"
#include "sim/thermal/rc_solver.h"

namespace {

using namespace polyarch::sim::thermal;

constexpr int kColumns = 5;
constexpr int kRows = 4;
constexpr int kSamples = 10000;

Floorplan grid_floorplan() {
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

void BM_BlockTransient20Blocks10kSamples(benchmark::State& state) {
  const Floorplan floorplan = grid_floorplan();
  const PowerTrace trace = random_trace(floorplan.block_count());
  const PackageConfig package;
  for (auto _ : state) {
    BlockThermalResult result =
        simulate_block_thermal(floorplan, trace, package, InitialTemperature::kSteady);
    benchmark::DoNotOptimize(result.transient_k.data());
  }
  state.SetItemsProcessed(state.iterations() * kSamples);
}
BENCHMARK(BM_BlockTransient20Blocks10kSamples)->Unit(benchmark::kMillisecond);

void BM_BlockTransientSetup20Blocks(benchmark::State& state) {
  const Floorplan floorplan = grid_floorplan();
  const PackageConfig package;
  for (auto _ : state) {
    const ThermalNetwork network = build_block_network(floorplan, package);
    TransientSolver solver(network, package.sampling_interval_s);
    benchmark::DoNotOptimize(&solver);
  }
}
BENCHMARK(BM_BlockTransientSetup20Blocks)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
