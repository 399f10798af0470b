#include "archs/dataflow/modulo_schedule.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::archs::dataflow {

namespace {

// Whether some dependence cycle needs more than `ii` x its distance: a positive cycle of
// latency + delay - ii x distance, found by Bellman-Ford longest paths from all nodes at once.
bool has_positive_cycle(const Dfg& dfg, const std::vector<int64_t>& route_delay, int64_t ii) {
  std::vector<int64_t> longest(dfg.nodes.size(), 0);
  for (std::size_t round = 0; round <= dfg.nodes.size(); ++round) {
    bool changed = false;
    for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
      const DfgEdge& edge = dfg.edges[e];
      const int64_t weight = dfg.nodes[static_cast<std::size_t>(edge.src)].latency +
                             (route_delay.empty() ? 0 : route_delay[e]) - ii * edge.distance;
      const int64_t candidate = longest[static_cast<std::size_t>(edge.src)] + weight;
      if (candidate > longest[static_cast<std::size_t>(edge.dst)]) {
        longest[static_cast<std::size_t>(edge.dst)] = candidate;
        changed = true;
      }
    }
    if (!changed) return false;
  }
  return true;
}

// Kahn's order over the intra-iteration (distance 0) edges.
std::vector<int> topological_order(const Dfg& dfg) {
  std::vector<int64_t> pending(dfg.nodes.size(), 0);
  std::vector<std::vector<int>> successors(dfg.nodes.size());
  for (const DfgEdge& edge : dfg.edges) {
    if (edge.distance != 0) continue;
    ++pending[static_cast<std::size_t>(edge.dst)];
    successors[static_cast<std::size_t>(edge.src)].push_back(edge.dst);
  }
  std::vector<int> order;
  for (int node = 0; node < static_cast<int>(dfg.nodes.size()); ++node) {
    if (pending[static_cast<std::size_t>(node)] == 0) order.push_back(node);
  }
  for (std::size_t at = 0; at < order.size(); ++at) {
    for (int next : successors[static_cast<std::size_t>(order[at])]) {
      if (--pending[static_cast<std::size_t>(next)] == 0) order.push_back(next);
    }
  }
  if (order.size() != dfg.nodes.size()) {
    throw_runtime({}, "dataflow graph '" + dfg.label + "' has a cycle of distance 0");
  }
  return order;
}

struct Routing {
  std::vector<int64_t> route_delay;
  int64_t route_mii = 1;
  int64_t link_hops = 0;
  int64_t busiest = 0;
};

Routing route_values(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg,
                     const Placement& placement) {
  Routing routing;
  std::vector<std::set<int64_t>> links_of_value(dfg.nodes.size());
  for (const DfgEdge& edge : dfg.edges) {
    const Site& from = placement.sites[static_cast<std::size_t>(edge.src)];
    const Site& to = placement.sites[static_cast<std::size_t>(edge.dst)];
    const std::vector<int64_t> links = fabric.route(from, to);
    routing.route_delay.push_back(
        ceil_div(static_cast<int64_t>(links.size()), params.network.hops_per_cycle));
    links_of_value[static_cast<std::size_t>(edge.src)].insert(links.begin(), links.end());
  }
  std::vector<int64_t> load(static_cast<std::size_t>(fabric.link_count()), 0);
  for (const std::set<int64_t>& links : links_of_value) {
    for (int64_t link : links) ++load[static_cast<std::size_t>(link)];
    routing.link_hops += static_cast<int64_t>(links.size());
  }
  for (int64_t link = 0; link < fabric.link_count(); ++link) {
    const int64_t values = load[static_cast<std::size_t>(link)];
    routing.busiest = std::max(routing.busiest, values);
    // A memory PE's port into the grid carries as many streams as the PE has ports.
    const int64_t capacity =
        fabric.is_memory_link(link) ? params.memory.ports : params.network.links_per_direction;
    routing.route_mii = std::max(routing.route_mii, ceil_div(values, capacity));
  }
  return routing;
}

// Start times at `ii`, or empty when a loop-carried dependence cannot be met.
std::vector<int64_t> schedule_at(const DataflowParams& params, const Dfg& dfg,
                                 const Placement& placement, const std::vector<int>& order,
                                 const std::vector<int64_t>& route_delay, int64_t ii) {
  std::vector<int64_t> start(dfg.nodes.size(), -1);
  std::map<std::pair<int64_t, int64_t>, int64_t> issued;  // (site key, cycle mod ii) -> nodes
  for (int node : order) {
    int64_t earliest = 0;
    for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
      const DfgEdge& edge = dfg.edges[e];
      if (edge.dst != node || start[static_cast<std::size_t>(edge.src)] < 0) continue;
      earliest = std::max(earliest, start[static_cast<std::size_t>(edge.src)] +
                                        dfg.nodes[static_cast<std::size_t>(edge.src)].latency +
                                        route_delay[e] - ii * edge.distance);
    }
    const Site& site = placement.sites[static_cast<std::size_t>(node)];
    const int64_t key = site.memory ? -1 - site.index : site.index;
    const int64_t capacity = site.memory ? params.memory.ports : params.pe.stages;
    int64_t time = earliest;
    while (issued[{key, time % ii}] >= capacity) {
      if (++time >= earliest + ii) return {};  // every slot of this site is taken
    }
    ++issued[{key, time % ii}];
    start[static_cast<std::size_t>(node)] = time;
  }
  for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
    const DfgEdge& edge = dfg.edges[e];
    const int64_t ready = start[static_cast<std::size_t>(edge.src)] +
                          dfg.nodes[static_cast<std::size_t>(edge.src)].latency + route_delay[e];
    if (start[static_cast<std::size_t>(edge.dst)] + ii * edge.distance < ready) return {};
  }
  return start;
}

}  // namespace

int64_t memory_bytes_per_iteration(const DataflowParams& params, const Dfg& dfg,
                                   int64_t element_bytes) {
  return dfg.memory_nodes() * params.pe.lanes * element_bytes;
}

int64_t res_mii(const DataflowParams& params, const Dfg& dfg, int64_t element_bytes) {
  const int64_t compute = ceil_div(dfg.compute_nodes(), params.pe.count() * params.pe.stages);
  const int64_t streams = ceil_div(dfg.memory_nodes(), params.memory.count * params.memory.ports);
  const int64_t bandwidth = ceil_div(memory_bytes_per_iteration(params, dfg, element_bytes),
                                     params.memory.count * params.memory.bytes_per_cycle);
  return std::max<int64_t>({1, compute, streams, bandwidth});
}

int64_t rec_mii(const Dfg& dfg, const std::vector<int64_t>& route_delay) {
  int64_t high = 1;
  bool carried = false;
  for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
    high += dfg.nodes[static_cast<std::size_t>(dfg.edges[e].src)].latency +
            (route_delay.empty() ? 0 : route_delay[e]);
    carried = carried || dfg.edges[e].distance > 0;
  }
  if (!carried || !has_positive_cycle(dfg, route_delay, 1)) return 1;
  int64_t low = 1;  // infeasible; high is feasible (no cycle is longer than all edges together)
  while (high - low > 1) {
    const int64_t mid = low + (high - low) / 2;
    (has_positive_cycle(dfg, route_delay, mid) ? low : high) = mid;
  }
  return high;
}

ModuloSchedule modulo_schedule(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg,
                               const Placement& placement, int64_t element_bytes) {
  ModuloSchedule schedule;
  const Routing routing = route_values(params, fabric, dfg, placement);
  schedule.route_delay = routing.route_delay;
  schedule.link_hops = routing.link_hops;
  schedule.busiest_link_load = routing.busiest;
  schedule.res_mii = res_mii(params, dfg, element_bytes);
  schedule.rec_mii = rec_mii(dfg, routing.route_delay);
  schedule.route_mii = routing.route_mii;
  const std::vector<int> order = topological_order(dfg);
  // The placement may hold more nodes per PE than ResMII allows (stationary registers forced
  // it to spread less): its interval is a bound too.
  schedule.ii = std::max({schedule.res_mii, schedule.rec_mii, schedule.route_mii, placement.ii});
  while ((schedule.start =
              schedule_at(params, dfg, placement, order, routing.route_delay, schedule.ii))
             .empty()) {
    ++schedule.ii;  // a slot conflict stretched a recurrence: relax the interval
  }
  std::set<int64_t> pes;
  std::set<int64_t> memory_pes;
  for (std::size_t node = 0; node < dfg.nodes.size(); ++node) {
    const Site& site = placement.sites[node];
    (site.memory ? memory_pes : pes).insert(site.index);
    schedule.depth_cycles =
        std::max(schedule.depth_cycles, schedule.start[node] + dfg.nodes[node].latency);
  }
  schedule.pes_used = static_cast<int64_t>(pes.size());
  schedule.memory_pes_used = static_cast<int64_t>(memory_pes.size());
  return schedule;
}

}  // namespace polyarch::archs::dataflow
