#include "archs/dataflow/placement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "base/random_draw.h"

namespace polyarch::archs::dataflow {

int64_t compute_slots(const DataflowParams& params, int64_t ii) { return ii * params.pe.stages; }
int64_t memory_slots(const DataflowParams& params, int64_t ii, int64_t element_bytes) {
  const int64_t access = params.pe.lanes * element_bytes;
  return std::min(ii * params.memory.ports, ii * params.memory.bytes_per_cycle / access);
}

int64_t memory_issue_width(const DataflowParams& params, int64_t element_bytes) {
  const int64_t access = params.pe.lanes * element_bytes;
  return std::min(params.memory.ports,
                  std::max<int64_t>(1, params.memory.bytes_per_cycle / access));
}

namespace {

// Cooling schedule: moves per node and the temperature range in hops.
constexpr int64_t kMovesPerNode = 150;
constexpr int64_t kMaxMoves = 60000;
constexpr double kStartTemperature = 3.0;
constexpr double kEndTemperature = 0.02;

class Annealer {
 public:
  Annealer(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg, int64_t ii,
           int64_t element_bytes)
      : params_(params), fabric_(fabric), dfg_(dfg), rng_(params.seed) {
    compute_capacity_ = compute_slots(params, ii);
    memory_capacity_ = memory_slots(params, ii, element_bytes);
    neighbours_.resize(dfg.nodes.size());
    for (const DfgEdge& edge : dfg.edges) {
      if (edge.src == edge.dst) continue;
      neighbours_[static_cast<std::size_t>(edge.src)].push_back(edge.dst);
      neighbours_[static_cast<std::size_t>(edge.dst)].push_back(edge.src);
    }
    pe_nodes_.assign(static_cast<std::size_t>(fabric.pe_count()), 0);
    pe_registers_.assign(static_cast<std::size_t>(fabric.pe_count()), 0);
    memory_nodes_.assign(static_cast<std::size_t>(fabric.memory_count()), 0);
  }

  bool greedy_start(Placement& placement);
  void anneal(Placement& placement);

 private:
  int64_t node_cost(const Placement& placement, int node, const Site& site) const {
    int64_t cost = 0;
    for (int other : neighbours_[static_cast<std::size_t>(node)]) {
      const Site& there = placement.sites[static_cast<std::size_t>(other)];
      if (there.index >= 0) cost += fabric_.hops(site, there);
    }
    return cost;
  }
  bool fits(int node, const Site& site) const;
  void occupy(int node, const Site& site, int64_t sign);
  int64_t site_count(bool memory) const {
    return memory ? fabric_.memory_count() : fabric_.pe_count();
  }

  const DataflowParams& params_;
  const Fabric& fabric_;
  const Dfg& dfg_;
  std::mt19937_64 rng_;
  int64_t compute_capacity_ = 1;
  int64_t memory_capacity_ = 1;
  std::vector<std::vector<int>> neighbours_;
  std::vector<int64_t> pe_nodes_;
  std::vector<int64_t> pe_registers_;
  std::vector<int64_t> memory_nodes_;
};

bool Annealer::fits(int node, const Site& site) const {
  const auto index = static_cast<std::size_t>(site.index);
  if (site.memory) return memory_nodes_[index] < memory_capacity_;
  const int64_t registers = dfg_.nodes[static_cast<std::size_t>(node)].registers;
  return pe_nodes_[index] < compute_capacity_ &&
         pe_registers_[index] + registers <= params_.pe.registers;
}

void Annealer::occupy(int node, const Site& site, int64_t sign) {
  const auto index = static_cast<std::size_t>(site.index);
  if (site.memory) {
    memory_nodes_[index] += sign;
    return;
  }
  pe_nodes_[index] += sign;
  pe_registers_[index] += sign * dfg_.nodes[static_cast<std::size_t>(node)].registers;
}

// Nodes in DFG order (builders emit producers first), each on the free site nearest to its
// already placed neighbours.
bool Annealer::greedy_start(Placement& placement) {
  placement.sites.assign(dfg_.nodes.size(), Site{false, -1});
  for (int node = 0; node < static_cast<int>(dfg_.nodes.size()); ++node) {
    const bool memory = dfg_.is_memory(node);
    Site best{memory, -1};
    int64_t best_cost = std::numeric_limits<int64_t>::max();
    for (int64_t index = 0; index < site_count(memory); ++index) {
      const Site site{memory, index};
      if (!fits(node, site)) continue;
      const int64_t cost = node_cost(placement, node, site);
      if (cost < best_cost) {
        best_cost = cost;
        best = site;
      }
    }
    if (best.index < 0) return false;
    placement.sites[static_cast<std::size_t>(node)] = best;
    occupy(node, best, 1);
  }
  return true;
}

void Annealer::anneal(Placement& placement) {
  const auto nodes = static_cast<int64_t>(dfg_.nodes.size());
  const int64_t moves = std::min(kMaxMoves, kMovesPerNode * nodes);
  const double cooling = std::pow(kEndTemperature / kStartTemperature,
                                  1.0 / static_cast<double>(std::max<int64_t>(moves, 1)));
  double temperature = kStartTemperature;
  for (int64_t move = 0; move < moves; ++move, temperature *= cooling) {
    const int node = static_cast<int>(random_int(rng_, 0, nodes - 1));
    const Site from = placement.sites[static_cast<std::size_t>(node)];
    const Site to{from.memory, random_int(rng_, 0, site_count(from.memory) - 1)};
    if (to == from) continue;
    occupy(node, from, -1);
    if (!fits(node, to)) {
      occupy(node, from, 1);
      continue;
    }
    const int64_t delta = node_cost(placement, node, to) - node_cost(placement, node, from);
    if (delta <= 0 || random_unit(rng_) < std::exp(-static_cast<double>(delta) / temperature)) {
      placement.sites[static_cast<std::size_t>(node)] = to;
      occupy(node, to, 1);
    } else {
      occupy(node, from, 1);
    }
  }
}

int64_t total_hops(const Fabric& fabric, const Dfg& dfg, const Placement& placement) {
  int64_t hops = 0;
  for (const DfgEdge& edge : dfg.edges) {
    hops += fabric.hops(placement.sites[static_cast<std::size_t>(edge.src)],
                        placement.sites[static_cast<std::size_t>(edge.dst)]);
  }
  return hops;
}

}  // namespace

Placement place(const DataflowParams& params, const Fabric& fabric, const Dfg& dfg, int64_t ii,
                int64_t element_bytes) {
  Placement placement;
  Annealer annealer(params, fabric, dfg, ii, element_bytes);
  if (!annealer.greedy_start(placement)) return Placement{};
  placement.ii = ii;
  placement.initial_hops = total_hops(fabric, dfg, placement);
  annealer.anneal(placement);
  placement.total_hops = total_hops(fabric, dfg, placement);
  return placement;
}

}  // namespace polyarch::archs::dataflow
