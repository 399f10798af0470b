#include "archs/dataflow/reference_sim.h"

#include <algorithm>
#include <map>

#include "base/error.h"

namespace polyarch::archs::dataflow {

namespace {

struct InEdge {
  int src = 0;
  int64_t distance = 0;
  int64_t delay = 0;
};

// Operands of a node's iteration `iteration` that have not arrived by `cycle`.
int64_t missing_operands(const Dfg& dfg, const std::vector<InEdge>& inputs,
                         const std::vector<std::vector<int64_t>>& fired, int64_t iteration,
                         int64_t cycle) {
  int64_t missing = 0;
  for (const InEdge& input : inputs) {
    const int64_t source_iteration = iteration - input.distance;
    if (source_iteration < 0) continue;  // the accumulator's initial value
    const std::vector<int64_t>& times = fired[static_cast<std::size_t>(input.src)];
    if (static_cast<int64_t>(times.size()) <= source_iteration) {
      ++missing;
      continue;
    }
    const int64_t arrival = times[static_cast<std::size_t>(source_iteration)] +
                            dfg.nodes[static_cast<std::size_t>(input.src)].latency + input.delay;
    if (arrival > cycle) ++missing;
  }
  return missing;
}

}  // namespace

ReferenceRun simulate_loop(const DataflowParams& params, const Dfg& dfg, const Placement& placement,
                           const ModuloSchedule& schedule, int64_t iterations, ReferenceMode mode) {
  const std::size_t nodes = dfg.nodes.size();
  std::vector<std::vector<InEdge>> inputs(nodes);
  std::vector<bool> paced(nodes, true);  // no intra-iteration producer: issues every II
  for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
    const DfgEdge& edge = dfg.edges[e];
    inputs[static_cast<std::size_t>(edge.dst)].push_back(
        {edge.src, edge.distance, schedule.route_delay[e]});
    if (edge.distance == 0) paced[static_cast<std::size_t>(edge.dst)] = false;
  }
  const bool fixed = mode == ReferenceMode::kStatic;
  std::vector<std::vector<int64_t>> fired(nodes);
  ReferenceRun run;
  const int64_t total_fires = static_cast<int64_t>(nodes) * iterations;
  // Generous bound: every iteration serialised through the deepest schedule.
  const int64_t cycle_limit = (schedule.depth_cycles + schedule.ii + 1) * (iterations + 1) + 64;
  for (int64_t cycle = 0; run.fires < total_fires; ++cycle) {
    if (cycle > cycle_limit) {
      throw_runtime({}, "dataflow reference: '" + dfg.label + "' deadlocked");
    }
    std::map<std::pair<bool, int64_t>, int64_t> issues;  // (memory, site) -> nodes this cycle
    for (std::size_t node = 0; node < nodes; ++node) {
      const auto iteration = static_cast<int64_t>(fired[node].size());
      if (iteration >= iterations) continue;
      const Site& site = placement.sites[node];
      int64_t& used = issues[{site.memory, site.index}];
      const int64_t missing = missing_operands(dfg, inputs[node], fired, iteration, cycle);
      if (fixed) {
        if (cycle != iteration * schedule.ii + schedule.start[node]) continue;
        run.late_operands += missing;
      } else {
        if (paced[node] && cycle < iteration * schedule.ii) continue;
        if (missing > 0) continue;
        if (used >= (site.memory ? params.memory.ports : params.pe.stages)) continue;
      }
      ++used;
      run.busiest_cycle_issues = std::max(run.busiest_cycle_issues, used);
      fired[node].push_back(cycle);
      run.cycles = std::max(run.cycles, cycle + dfg.nodes[node].latency);
      ++run.fires;
    }
  }
  return run;
}

}  // namespace polyarch::archs::dataflow
