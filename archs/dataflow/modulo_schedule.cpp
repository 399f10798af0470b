#include "archs/dataflow/modulo_schedule.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::archs::dataflow {

namespace {

// Schedules tried at one interval, each starting late consumers of loop-carried values later,
// before the interval grows.
constexpr int64_t kRetriesPerInterval = 4;

// Whether some dependence cycle needs more than `ii` x its distance: a positive cycle of
// latency + delay - ii x distance, found by Bellman-Ford longest paths from all nodes at once.
// With `credit_values` > 0 every value also has to find room in its consumer's buffer: a
// producer fires iteration j only once the consumer has fired iteration j - credit_values,
// (seen the cycle after), which adds an edge back from each consumer to its producer of weight
// 1 - ii x credit_values (an accumulator keeps its value in its own register: no such edge).
bool has_positive_cycle(const Dfg& dfg, const std::vector<int64_t>& route_delay, int64_t ii,
                        int64_t credit_values = 0) {
  std::vector<int64_t> longest(dfg.nodes.size(), 0);
  const auto relax = [&longest](int from, int to, int64_t weight) {
    const int64_t candidate = longest[static_cast<std::size_t>(from)] + weight;
    if (candidate <= longest[static_cast<std::size_t>(to)]) return false;
    longest[static_cast<std::size_t>(to)] = candidate;
    return true;
  };
  for (std::size_t round = 0; round <= dfg.nodes.size(); ++round) {
    bool changed = false;
    for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
      const DfgEdge& edge = dfg.edges[e];
      const int64_t weight = dfg.nodes[static_cast<std::size_t>(edge.src)].latency +
                             (route_delay.empty() ? 0 : route_delay[e]) - ii * edge.distance;
      changed = relax(edge.src, edge.dst, weight) || changed;
      if (credit_values > 0 && edge.src != edge.dst) {
        changed = relax(edge.dst, edge.src, 1 - ii * credit_values) || changed;
      }
    }
    if (!changed) return false;
  }
  return true;
}

// The smallest interval, at least `low` + 1, for which `feasible` holds, given that it holds
// at `high` and fails at `low`.
template <typename Feasible>
int64_t smallest_feasible(int64_t low, int64_t high, Feasible feasible) {
  while (high - low > 1) {
    const int64_t mid = low + (high - low) / 2;
    (feasible(mid) ? high : low) = mid;
  }
  return high;
}

// What every edge's value takes to arrive, all edges together: no dependence cycle is longer.
int64_t all_edges_cycles(const Dfg& dfg, const std::vector<int64_t>& route_delay) {
  int64_t cycles = 0;
  for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
    cycles += dfg.nodes[static_cast<std::size_t>(dfg.edges[e].src)].latency +
              (route_delay.empty() ? 0 : route_delay[e]);
  }
  return cycles;
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

struct Routes {
  std::vector<int64_t> route_delay;         // per edge, unhindered: ceil(hops / hops_per_cycle)
  std::vector<std::vector<int64_t>> links;  // per edge, the links of its route in order
  int64_t route_mii = 1;
  int64_t link_hops = 0;
  int64_t busiest = 0;
};

// The compute PE a link leaves from, or -1 for a memory PE's link into the grid.
int64_t leaving_pe(const Fabric& fabric, int64_t link) {
  if (!fabric.is_memory_link(link)) return link / 4;
  const int64_t memory_link = link - fabric.pe_count() * 4;
  return memory_link % 2 == 0 ? -1 : fabric.attach_pe(memory_link / 2);
}

// Compute PEs a value passes through (leaves without having been produced there): with
// routing through PEs each spends an issue slot per iteration moving it on.
std::set<int64_t> pass_through_pes(const Fabric& fabric, const Site& source,
                                   const std::set<int64_t>& links) {
  std::set<int64_t> through;
  for (int64_t link : links) {
    const int64_t pe = leaving_pe(fabric, link);
    if (pe >= 0 && (source.memory || pe != source.index)) through.insert(pe);
  }
  return through;
}

Routes route_values(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg,
                    const Placement& placement) {
  Routes routing;
  std::vector<std::set<int64_t>> links_of_value(dfg.nodes.size());
  for (const DfgEdge& edge : dfg.edges) {
    const Site& from = placement.sites[static_cast<std::size_t>(edge.src)];
    const Site& to = placement.sites[static_cast<std::size_t>(edge.dst)];
    std::vector<int64_t> links = fabric.route(from, to);
    routing.route_delay.push_back(
        ceil_div(static_cast<int64_t>(links.size()), params.network.hops_per_cycle));
    links_of_value[static_cast<std::size_t>(edge.src)].insert(links.begin(), links.end());
    routing.links.push_back(std::move(links));
  }
  std::vector<int64_t> load(static_cast<std::size_t>(fabric.link_count()), 0);
  std::vector<int64_t> pe_load(static_cast<std::size_t>(fabric.pe_count()), 0);
  for (std::size_t node = 0; node < dfg.nodes.size(); ++node) {
    const Site& site = placement.sites[node];
    if (!site.memory) ++pe_load[static_cast<std::size_t>(site.index)];
    for (int64_t link : links_of_value[node]) ++load[static_cast<std::size_t>(link)];
    routing.link_hops += static_cast<int64_t>(links_of_value[node].size());
    if (params.network.routing != Routing::kThroughPes) continue;
    for (int64_t pe : pass_through_pes(fabric, site, links_of_value[node])) {
      ++pe_load[static_cast<std::size_t>(pe)];
    }
  }
  for (int64_t link = 0; link < fabric.link_count(); ++link) {
    const int64_t values = load[static_cast<std::size_t>(link)];
    routing.busiest = std::max(routing.busiest, values);
    // A memory PE's port into the grid carries as many streams as the PE has ports.
    const int64_t capacity =
        fabric.is_memory_link(link) ? params.memory.ports : params.network.links_per_direction;
    routing.route_mii = std::max(routing.route_mii, ceil_div(values, capacity));
  }
  if (params.network.routing == Routing::kThroughPes) {
    // Route-through moves share the PEs' issue slots with the nodes placed there.
    for (int64_t nodes : pe_load) {
      routing.route_mii = std::max(routing.route_mii, ceil_div(nodes, params.pe.stages));
    }
  }
  return routing;
}

// Modulo reservation tables at one interval: issue slots of every site and words of every link
// per cycle modulo II.
struct Reservations {
  int64_t ii = 1;
  std::map<std::pair<int64_t, int64_t>, int64_t> issued;   // (site key, cycle mod ii) -> nodes
  std::map<std::pair<int64_t, int64_t>, int64_t> carried;  // (link, cycle mod ii) -> values

  int64_t& slot(int64_t key, int64_t cycle) { return issued[{key, cycle % ii}]; }
  int64_t& word(int64_t link, int64_t cycle) { return carried[{link, cycle % ii}]; }
};

int64_t site_key(const Site& site) { return site.memory ? -1 - site.index : site.index; }

// Routes the value `node` produces at `ready` hop by hop through the reservation tables: a hop
// waits in its switch while its link (and, routing through PEs, the PE it leaves) is taken in
// that cycle modulo II, and at most hops_per_cycle links are crossed per cycle. Fills the delay
// of every edge out of `node`; false when some link is taken in every cycle of the interval.
bool reserve_routes(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg,
                    const Placement& placement, const Routes& routing, int node, int64_t ready,
                    Reservations& tables, std::vector<int64_t>& delay) {
  struct Crossed {
    int64_t cycle = 0;
    int64_t hops = 0;  // links crossed in that cycle so far
  };
  std::map<int64_t, Crossed> tree;  // per link of the value's multicast tree
  const Site& source = placement.sites[static_cast<std::size_t>(node)];
  const bool through_pes = params.network.routing == Routing::kThroughPes;
  for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
    if (dfg.edges[e].src != node) continue;
    Crossed at{ready, 0};
    for (std::size_t hop = 0; hop < routing.links[e].size(); ++hop) {
      const int64_t link = routing.links[e][hop];
      if (auto found = tree.find(link); found != tree.end()) {
        at = found->second;
        continue;
      }
      const int64_t pe = hop == 0 ? -1 : leaving_pe(fabric, link);
      const bool move = through_pes && pe >= 0 && (source.memory || pe != source.index);
      const int64_t capacity =
          fabric.is_memory_link(link) ? params.memory.ports : params.network.links_per_direction;
      int64_t cycle = at.hops >= params.network.hops_per_cycle ? at.cycle + 1 : at.cycle;
      const int64_t first = cycle;
      while (tables.word(link, cycle) >= capacity ||
             (move && tables.slot(pe, cycle) >= params.pe.stages)) {
        if (++cycle >= first + tables.ii) return false;
      }
      ++tables.word(link, cycle);
      if (move) ++tables.slot(pe, cycle);
      at = {cycle, cycle == at.cycle ? at.hops + 1 : 1};
      tree[link] = at;
    }
    delay[e] = routing.links[e].empty() ? 0 : at.cycle + 1 - ready;
  }
  return true;
}

// Start times at `ii` and the delays their routes met; empty starts when a loop-carried
// dependence cannot be met or a site or link is full in every cycle of the interval.
struct Timing {
  std::vector<int64_t> start;
  std::vector<int64_t> delay;
  bool link_full = false;  // failed because a route found no free cycle
};

Timing schedule_at(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg,
                   const Placement& placement, const std::vector<int>& order, const Routes& routing,
                   int64_t ii, int64_t element_bytes, std::vector<int64_t>& not_before) {
  Timing timing;
  timing.start.assign(dfg.nodes.size(), -1);
  timing.delay = routing.route_delay;
  Reservations tables;
  tables.ii = ii;
  for (int node : order) {
    int64_t earliest = not_before[static_cast<std::size_t>(node)];
    for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
      const DfgEdge& edge = dfg.edges[e];
      if (edge.dst != node || timing.start[static_cast<std::size_t>(edge.src)] < 0) continue;
      earliest = std::max(earliest, timing.start[static_cast<std::size_t>(edge.src)] +
                                        dfg.nodes[static_cast<std::size_t>(edge.src)].latency +
                                        timing.delay[e] - ii * edge.distance);
    }
    const Site& site = placement.sites[static_cast<std::size_t>(node)];
    const int64_t capacity =
        site.memory ? memory_issue_width(params, element_bytes) : params.pe.stages;
    int64_t time = earliest;
    while (tables.slot(site_key(site), time) >= capacity) {
      if (++time >= earliest + ii) return {};  // every slot of this site is taken
    }
    ++tables.slot(site_key(site), time);
    timing.start[static_cast<std::size_t>(node)] = time;
    if (!reserve_routes(params, fabric, dfg, placement, routing, node,
                        time + dfg.nodes[static_cast<std::size_t>(node)].latency, tables,
                        timing.delay)) {
      Timing failed;
      failed.link_full = true;
      return failed;
    }
  }
  for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
    const DfgEdge& edge = dfg.edges[e];
    const int64_t ready = timing.start[static_cast<std::size_t>(edge.src)] +
                          dfg.nodes[static_cast<std::size_t>(edge.src)].latency + timing.delay[e];
    const int64_t late =
        ready - ii * edge.distance - timing.start[static_cast<std::size_t>(edge.dst)];
    if (late > 0) {
      // Start the loop-carried consumer that much later next time (Rau's iterative modulo
      // scheduling moves it rather than giving up the interval at once).
      not_before[static_cast<std::size_t>(edge.dst)] =
          timing.start[static_cast<std::size_t>(edge.dst)] + late;
      return {};
    }
    // Credit: the producer's iteration j waits for the consumer's j - buffer_values, so a
    // consumer that issue slots or links placed later than the buffers reach holds it back.
    const int64_t ahead = timing.start[static_cast<std::size_t>(edge.dst)] -
                          timing.start[static_cast<std::size_t>(edge.src)] -
                          (ii * params.network.buffer_values - 1);
    if (edge.src != edge.dst && ahead > 0) {
      not_before[static_cast<std::size_t>(edge.src)] =
          timing.start[static_cast<std::size_t>(edge.src)] + ahead;
      return {};
    }
  }
  return timing;
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
  const bool carried = std::any_of(dfg.edges.begin(), dfg.edges.end(),
                                   [](const DfgEdge& edge) { return edge.distance > 0; });
  if (!carried || !has_positive_cycle(dfg, route_delay, 1)) return 1;
  // Infeasible at 1; feasible at `high` (no cycle is longer than all edges together).
  const int64_t high = 1 + all_edges_cycles(dfg, route_delay);
  return smallest_feasible(1, high,
                           [&](int64_t ii) { return !has_positive_cycle(dfg, route_delay, ii); });
}

namespace {

// Smallest II at which the network's buffers (`network.buffer_values` per producer and
// consumer) pass every value: RecMII over the dependence edges and the credit edges back. The
// credit edges only add cycles, so it is never below `rec_mii`, and most often equal to it.
int64_t buffer_mii(const DataflowParams& params, const Dfg& dfg,
                   const std::vector<int64_t>& route_delay, int64_t rec_mii) {
  const int64_t credits = params.network.buffer_values;
  if (!has_positive_cycle(dfg, route_delay, rec_mii, credits)) return rec_mii;
  // Feasible at `high`: a cycle of dependence edges alone fits above RecMII, and one through a
  // credit edge loses ii - 1 or more there, more than all latencies and delays, plus 1 per
  // credit edge, add up to.
  const int64_t high =
      rec_mii + all_edges_cycles(dfg, route_delay) + static_cast<int64_t>(dfg.edges.size());
  return smallest_feasible(rec_mii, high, [&](int64_t ii) {
    return !has_positive_cycle(dfg, route_delay, ii, credits);
  });
}

}  // namespace

ModuloSchedule modulo_schedule(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg,
                               const Placement& placement, int64_t element_bytes) {
  ModuloSchedule schedule;
  const Routes routing = route_values(params, fabric, dfg, placement);
  schedule.link_hops = routing.link_hops;
  schedule.busiest_link_load = routing.busiest;
  schedule.res_mii = res_mii(params, dfg, element_bytes);
  schedule.rec_mii = rec_mii(dfg, routing.route_delay);
  schedule.route_mii = routing.route_mii;
  schedule.buffer_mii = buffer_mii(params, dfg, routing.route_delay, schedule.rec_mii);
  const std::vector<int> order = topological_order(dfg);
  // The placement may hold more nodes per PE than ResMII allows (stationary registers forced
  // it to spread less): its interval is a bound too.
  schedule.ii = std::max(
      {schedule.res_mii, schedule.rec_mii, schedule.route_mii, schedule.buffer_mii, placement.ii});
  bool link_full = false;
  Timing timing;
  std::vector<int64_t> not_before(dfg.nodes.size(), 0);
  for (int64_t attempt = 1;; ++attempt) {
    timing = schedule_at(params, fabric, dfg, placement, order, routing, schedule.ii, element_bytes,
                         not_before);
    if (!timing.start.empty()) break;
    link_full = timing.link_full;
    if (attempt % kRetriesPerInterval == 0) {
      ++schedule.ii;  // a slot or link conflict stretched a recurrence: relax the interval
      not_before.assign(dfg.nodes.size(), 0);
    }
  }
  // Routing sets the interval when it is above what issue slots, scratchpads and recurrences
  // need, and it is RouteMII, BufMII (the network's buffers) or a route found every cycle of a
  // smaller interval taken.
  schedule.routing_bound =
      schedule.ii > std::max({schedule.res_mii, schedule.rec_mii, placement.ii}) &&
      (schedule.ii == schedule.route_mii || schedule.ii == schedule.buffer_mii || link_full);
  schedule.start = std::move(timing.start);
  schedule.route_delay = std::move(timing.delay);
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
