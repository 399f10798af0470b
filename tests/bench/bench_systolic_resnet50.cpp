// Whole-network simulation speed: ResNet-50's layers (workloads/resnet50_layers.yaml) partitioned
// onto one systolic array and simulated with a realistic DRAM. Floor: under 50 ms per network.
#include <benchmark/benchmark.h>

#include <string>

#include "archs/systolic/module.h"
#include "compiler/frontend/workload_loader.h"
#include "mapping/program/program.h"
#include "sim/kernel/simulation.h"

namespace {

using polyarch::archs::systolic::Dataflow;

const polyarch::ir::Graph& resnet50() {
  static const polyarch::ir::Graph graph = polyarch::frontend::load_workload(
      std::string(POLYARCH_SOURCE_DIR) + "/workloads/resnet50_layers.yaml");
  return graph;
}

void simulate_resnet50(benchmark::State& state, Dataflow dataflow) {
  polyarch::archs::systolic::SystolicParams params;
  params.name = "mxu";
  params.rows = state.range(0);
  params.cols = state.range(0);
  params.dataflow = dataflow;
  params.buffers = {.ifmap_kib = 512, .filter_kib = 512, .ofmap_kib = 256, .double_buffered = true};

  polyarch::sim::SystemSpec system;
  system.name = "bench";
  system.clock_ghz = 1.0;
  system.dram.bandwidth_gbps = 30.0;
  system.dram.latency_ns = 100.0;
  system.units.push_back(
      {"mxu", "systolic", polyarch::archs::systolic::systolic_unit_factory(params, 1.0)});
  const polyarch::ir::Graph& graph = resnet50();
  const auto supports = [](const polyarch::ir::Op& op) {
    return op.kind() == polyarch::ir::OpKind::kGemm || op.kind() == polyarch::ir::OpKind::kConv2d;
  };
  int64_t total_cycles = 0;
  int64_t folds_simulated = 0;
  int64_t folds_skipped = 0;
  for (auto _ : state) {
    const polyarch::mapping::Program program =
        polyarch::mapping::partition_graph(graph, {{"mxu", "systolic", supports}});
    const polyarch::sim::RunResult result = polyarch::sim::simulate(system, program, graph);
    total_cycles = result.summary.total_cycles;
    folds_simulated = folds_skipped = 0;
    for (const auto& op : result.ops) {
      const auto& fast_forward = op.mapping["steady_state_fast_forward"];
      folds_simulated += fast_forward["folds_simulated"].get<int64_t>();
      folds_skipped += fast_forward["folds_skipped"].get<int64_t>();
    }
    benchmark::DoNotOptimize(total_cycles);
  }
  state.counters["total_cycles"] = static_cast<double>(total_cycles);
  state.counters["folds"] = static_cast<double>(folds_simulated + folds_skipped);
  state.counters["folds_simulated"] = static_cast<double>(folds_simulated);
  state.counters["folds_skipped"] = static_cast<double>(folds_skipped);
}

// Registered once per dataflow so that the label names it (simulate_resnet50/os/array:32).
BENCHMARK_CAPTURE(simulate_resnet50, os, Dataflow::kOutputStationary)
    ->ArgName("array")
    ->Arg(32)
    ->Arg(128)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_resnet50, ws, Dataflow::kWeightStationary)
    ->ArgName("array")
    ->Arg(32)
    ->Arg(128)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_resnet50, is, Dataflow::kInputStationary)
    ->ArgName("array")
    ->Arg(32)
    ->Arg(128)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
