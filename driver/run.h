#pragma once
// The composition root for one (arch, workload) pair: load and validate both files, compile the
// workload into the graph IR, plan it onto the SoC's units (HEFT, power cap, pipelining),
// simulate, run the physics, and stamp provenance. The CLI, `compare` and the sweep runner all
// come through here.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "archs/soc/soc_config.h"
#include "compiler/ir/graph.h"
#include "compiler/lower/pipeline.h"
#include "mapping/cache/unit_decisions.h"
#include "sim/result.h"

namespace polyarch::driver {

struct RunRequest {
  std::filesystem::path arch_path;
  std::filesystem::path workload_path;
  uint64_t seed = 0;
  double power_window_s = 1e-6;  // power and temperature trace resolution
  // `--search S`: units whose kind exposes a mapping space run searched mappings; null: each
  // kind's own choice.
  std::shared_ptr<const mapping::SearchPolicy> mapping_search;
  lower::PipelineOptions compile;  // optional compiler passes for an imported model
  // `--layout auto`: compile.conv_layout becomes the loaded SoC's preferred layout
  // (driver/compile_target.h).
  bool conv_layout_from_target = false;
  // `--pipeline-batches N`: N inputs of the workload streamed through the SoC, layers of
  // consecutive ones overlapping on different units (mapping/partition/list_scheduler.h).
  int micro_batches = 1;
  // `--only-supported`: ops no unit can run are left out and listed in the result
  // (driver/unsupported_ops.h); otherwise they are refused, all named at once.
  bool only_supported = false;
};

// What fitting a compiled workload to an SoC did to its graph: the form each attention op runs
// in (driver/attention_forms.h) and, with `only_supported`, the ops no unit runs, removed
// (otherwise such ops are bad input, all named at once).
struct FittedGraph {
  std::vector<sim::AttentionForm> attention_forms;
  std::vector<sim::SkippedOp> skipped_ops;
};
FittedGraph fit_graph_to_soc(const archs::SocConfig& soc, ir::Graph& graph, bool search_forms,
                             bool only_supported);

// Simulates an already-loaded workload on an already-parsed SoC (no provenance): energy,
// the power trace in windows of `power_window_s` and the temperatures of the thermal model.
// With `micro_batches` > 1 the workload runs that many times, pipelined over the units, and
// result.schedule->pipeline compares it with one input simulated alone.
sim::RunResult simulate_workload(const archs::SocConfig& soc, const ir::Graph& graph,
                                 double power_window_s = 1e-6, int micro_batches = 1);

// Loads both files and runs them; provenance carries both files' SHA-256 and the seed.
sim::RunResult run(const RunRequest& request);

}  // namespace polyarch::driver
