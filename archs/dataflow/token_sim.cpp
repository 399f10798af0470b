#include "archs/dataflow/token_sim.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "archs/dataflow/fabric.h"
#include "base/error.h"

namespace polyarch::archs::dataflow {

namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
// Cycles without a firing or a value moving before the run is declared stuck (a firing waits at
// most for scratchpad bandwidth to refill, far less than this).
constexpr int64_t kStuckCycles = 1 << 16;

// One value (node, iteration) on its way to the sites in `targets`, now in switch `at`.
struct Packet {
  int node = 0;
  int64_t iteration = 0;
  int64_t at = 0;         // switch: compute PE index, or PEs + memory PE index
  int64_t ready = 0;      // first cycle it may move
  bool at_origin = true;  // still in its producer's switch (no route-through move needed)
  std::vector<int64_t> targets;
};

// The network as its switches see it: where each switch forwards a value bound for a target.
class Router {
 public:
  explicit Router(const DataflowParams& params)
      : fabric_(params),
        rows_(params.pe.rows),
        cols_(params.pe.cols),
        pes_(params.pe.count()),
        torus_(params.network.topology == Topology::kTorus) {}

  int64_t switches() const { return pes_ + fabric_.memory_count(); }
  int64_t links() const { return pes_ * 4 + fabric_.memory_count() * 2; }
  bool is_memory(int64_t node_switch) const { return node_switch >= pes_; }
  bool is_memory_link(int64_t link) const { return link >= pes_ * 4; }
  int64_t switch_of(const Site& site) const { return site.memory ? pes_ + site.index : site.index; }

  // The link a value in `at` bound for `target` (another switch) takes next, and where it leads.
  std::pair<int64_t, int64_t> next_hop(int64_t at, int64_t target) const {
    if (is_memory(at)) {  // out of a memory PE into its edge PE
      const int64_t memory = at - pes_;
      return {pes_ * 4 + memory * 2, fabric_.attach_pe(memory)};
    }
    const int64_t target_pe = is_memory(target) ? fabric_.attach_pe(target - pes_) : target;
    if (at == target_pe) {  // down into the target memory PE
      return {pes_ * 4 + (target - pes_) * 2 + 1, target};
    }
    const int64_t row = at / cols_;
    const int64_t col = at % cols_;
    if (col != target_pe % cols_) {
      const int64_t step = axis_step(col, target_pe % cols_, cols_);
      return {at * 4 + (step > 0 ? 0 : 1), row * cols_ + (col + step + cols_) % cols_};
    }
    const int64_t step = axis_step(row, target_pe / cols_, rows_);
    return {at * 4 + (step > 0 ? 2 : 3), ((row + step + rows_) % rows_) * cols_ + col};
  }

 private:
  // +1 or -1 along one axis: towards the target, on a torus the shorter way (ties go direct).
  int64_t axis_step(int64_t from, int64_t to, int64_t size) const {
    int64_t step = to > from ? 1 : -1;
    const int64_t distance = to > from ? to - from : from - to;
    if (torus_ && distance * 2 > size) step = -step;
    return step;
  }

  Fabric fabric_;
  int64_t rows_;
  int64_t cols_;
  int64_t pes_;
  bool torus_;
};

// Nodes on a dependence cycle (an accumulator's self edge included): a node reaches itself
// through the graph's edges, found by a search from each node.
std::vector<bool> on_recurrence(const Dfg& dfg) {
  const std::size_t nodes = dfg.nodes.size();
  std::vector<std::vector<int>> successors(nodes);
  for (const DfgEdge& edge : dfg.edges) {
    successors[static_cast<std::size_t>(edge.src)].push_back(edge.dst);
  }
  std::vector<bool> recurrent(nodes, false);
  for (std::size_t start = 0; start < nodes; ++start) {
    std::vector<bool> seen(nodes, false);
    std::vector<int> stack(successors[start].begin(), successors[start].end());
    while (!stack.empty() && !recurrent[start]) {
      const auto at = static_cast<std::size_t>(stack.back());
      stack.pop_back();
      if (at == start) recurrent[start] = true;
      if (seen[at]) continue;
      seen[at] = true;
      stack.insert(stack.end(), successors[at].begin(), successors[at].end());
    }
  }
  return recurrent;
}

struct OutEdge {
  std::size_t edge = 0;
  int dst = 0;
  int64_t distance = 0;
};

class TokenSimulation {
 public:
  TokenSimulation(const DataflowParams& params, const Dfg& dfg, const Placement& placement,
                  int64_t iterations, int64_t element_bytes)
      : params_(params),
        dfg_(dfg),
        placement_(placement),
        router_(params),
        iterations_(iterations),
        access_bytes_(params.pe.lanes * element_bytes),
        budget_cap_(std::max(params.memory.bytes_per_cycle, params.pe.lanes * element_bytes)) {
    const std::size_t nodes = dfg.nodes.size();
    inputs_.resize(nodes);
    outputs_.resize(nodes);
    targets_.resize(nodes);
    for (std::size_t e = 0; e < dfg.edges.size(); ++e) {
      const DfgEdge& edge = dfg.edges[e];
      inputs_[static_cast<std::size_t>(edge.dst)].push_back(e);
      outputs_[static_cast<std::size_t>(edge.src)].push_back({e, edge.dst, edge.distance});
      const int64_t from = site_switch(edge.src);
      const int64_t to = site_switch(edge.dst);
      auto& targets = targets_[static_cast<std::size_t>(edge.src)];
      if (to != from && std::find(targets.begin(), targets.end(), to) == targets.end()) {
        targets.push_back(to);
      }
    }
    arrival_.assign(dfg.edges.size(),
                    std::vector<int64_t>(static_cast<std::size_t>(iterations), kNever));
    recurrent_ = on_recurrence(dfg);
    fired_.assign(nodes, 0);
    budget_.assign(static_cast<std::size_t>(params.memory.count), budget_cap_);
  }

  TokenRun run() {
    const int64_t total = static_cast<int64_t>(dfg_.nodes.size()) * iterations_;
    int64_t quiet = 0;
    for (int64_t cycle = 0; run_.fires < total; ++cycle) {
      link_used_.assign(static_cast<std::size_t>(router_.links()), 0);
      slots_used_.assign(static_cast<std::size_t>(router_.switches()), 0);
      for (int64_t& budget : budget_) {
        budget = std::min(budget_cap_, budget + params_.memory.bytes_per_cycle);
      }
      // Issue slots go to nodes on recurrences first, then to values passing through, then to
      // the other nodes, oldest iteration first within each.
      const bool recurrences = fire_nodes(cycle, true);
      const bool moved = move_packets(cycle);
      const bool fired = fire_nodes(cycle, false) || recurrences;
      quiet = moved || fired ? 0 : quiet + 1;
      if (quiet > kStuckCycles) {
        throw_runtime({}, "dataflow token reference: '" + dfg_.label + "' made no progress");
      }
    }
    return run_;
  }

 private:
  int64_t site_switch(int node) const {
    return router_.switch_of(placement_.sites[static_cast<std::size_t>(node)]);
  }

  int64_t slot_capacity(int64_t node_switch) const {
    return router_.is_memory(node_switch) ? params_.memory.ports : params_.pe.stages;
  }

  int64_t link_capacity(int64_t link) const {
    return router_.is_memory_link(link) ? params_.memory.ports
                                        : params_.network.links_per_direction;
  }

  // The value reached switch `at` in `cycle`: every consumer there can use it next cycle.
  void deliver(const Packet& packet, int64_t at, int64_t cycle) {
    for (const OutEdge& out : outputs_[static_cast<std::size_t>(packet.node)]) {
      const int64_t consumer_iteration = packet.iteration + out.distance;
      if (site_switch(out.dst) != at || consumer_iteration >= iterations_) continue;
      arrival_[out.edge][static_cast<std::size_t>(consumer_iteration)] = cycle + 1;
    }
  }

  // Advances one packet as far as this cycle allows; what stays behind goes to `waiting`.
  bool advance(Packet packet, int64_t cycle, std::vector<Packet>& waiting) {
    bool moved = false;
    const bool through_pes = params_.network.routing == Routing::kThroughPes;
    struct Leg {
      Packet packet;
      int64_t hops_left;
    };
    std::vector<Leg> legs = {{std::move(packet), params_.network.hops_per_cycle}};
    while (!legs.empty()) {
      Leg leg = std::move(legs.back());
      legs.pop_back();
      Packet& value = leg.packet;
      auto here = std::find(value.targets.begin(), value.targets.end(), value.at);
      if (here != value.targets.end()) {
        deliver(value, value.at, cycle);
        value.targets.erase(here);
      }
      if (value.targets.empty()) continue;
      const bool needs_move = through_pes && !value.at_origin && !router_.is_memory(value.at);
      if (leg.hops_left == 0 || (needs_move && slots_used_[static_cast<std::size_t>(value.at)] >=
                                                   slot_capacity(value.at))) {
        run_.link_waits += leg.hops_left > 0 ? 1 : 0;
        waiting.push_back(std::move(value));
        continue;
      }
      // Split the targets by the link each needs next; a link crosses once for all its targets.
      std::vector<std::tuple<int64_t, int64_t, std::vector<int64_t>>> branches;
      for (int64_t target : value.targets) {
        const auto hop = router_.next_hop(value.at, target);
        const int64_t link = std::get<0>(hop);
        const int64_t next = std::get<1>(hop);
        auto found = std::find_if(branches.begin(), branches.end(),
                                  [&](const auto& branch) { return std::get<0>(branch) == link; });
        if (found == branches.end()) {
          branches.push_back({link, next, {target}});
        } else {
          std::get<2>(*found).push_back(target);
        }
      }
      Packet stay = value;
      stay.targets.clear();
      bool used_slot = false;
      for (auto& [link, next, targets] : branches) {
        int64_t& used = link_used_[static_cast<std::size_t>(link)];
        if (used >= link_capacity(link)) {
          stay.targets.insert(stay.targets.end(), targets.begin(), targets.end());
          continue;
        }
        ++used;
        ++run_.link_crossings;
        used_slot = true;
        moved = true;
        Packet onward = value;
        onward.at = next;
        onward.at_origin = false;
        onward.targets = std::move(targets);
        // A value that arrives in this cycle with hops to spare is usable next cycle.
        legs.push_back({std::move(onward), leg.hops_left - 1});
      }
      if (used_slot && needs_move) {
        ++slots_used_[static_cast<std::size_t>(value.at)];
        ++run_.route_through_moves;
      }
      if (!stay.targets.empty()) {
        ++run_.link_waits;
        waiting.push_back(std::move(stay));
      }
    }
    return moved;
  }

  bool move_packets(int64_t cycle) {
    // Values a recurrence waits for first, then the oldest (as nodes fire).
    std::stable_sort(packets_.begin(), packets_.end(), [&](const Packet& a, const Packet& b) {
      const bool a_later = !recurrent_[static_cast<std::size_t>(a.node)];
      const bool b_later = !recurrent_[static_cast<std::size_t>(b.node)];
      return std::tie(a_later, a.iteration, a.node) < std::tie(b_later, b.iteration, b.node);
    });
    std::vector<Packet> waiting;
    bool moved = false;
    for (Packet& packet : packets_) {
      if (packet.ready > cycle) {
        waiting.push_back(std::move(packet));
        continue;
      }
      moved = advance(std::move(packet), cycle, waiting) || moved;
    }
    packets_ = std::move(waiting);
    run_.peak_values_in_network =
        std::max(run_.peak_values_in_network, static_cast<int64_t>(packets_.size()));
    return moved;
  }

  bool operands_ready(int node, int64_t iteration, int64_t cycle) const {
    for (std::size_t e : inputs_[static_cast<std::size_t>(node)]) {
      if (iteration - dfg_.edges[e].distance < 0) continue;  // an initial value
      if (arrival_[e][static_cast<std::size_t>(iteration)] > cycle) return false;
    }
    return true;
  }

  // Room at every consumer: values produced and not yet consumed stay below the buffer (plus
  // the `distance` initial values a loop-carried consumer starts with).
  bool has_credit(int node, int64_t iteration) const {
    for (const OutEdge& out : outputs_[static_cast<std::size_t>(node)]) {
      if (out.dst == node) continue;  // an accumulator keeps its value in its own register
      const int64_t consumed =
          std::max<int64_t>(0, fired_[static_cast<std::size_t>(out.dst)] - out.distance);
      if (iteration - consumed >= params_.network.buffer_values + out.distance) return false;
    }
    return true;
  }

  void fire(int node, int64_t iteration, int64_t cycle) {
    const DfgNode& spec = dfg_.nodes[static_cast<std::size_t>(node)];
    ++fired_[static_cast<std::size_t>(node)];
    ++run_.fires;
    const int64_t done = cycle + spec.latency;
    run_.cycles = std::max(run_.cycles, done);
    const int64_t here = site_switch(node);
    // Consumers on the producer's own site read its result register.
    for (const OutEdge& out : outputs_[static_cast<std::size_t>(node)]) {
      const int64_t consumer_iteration = iteration + out.distance;
      if (site_switch(out.dst) == here && consumer_iteration < iterations_) {
        arrival_[out.edge][static_cast<std::size_t>(consumer_iteration)] = done;
      }
    }
    const auto& targets = targets_[static_cast<std::size_t>(node)];
    if (!targets.empty()) packets_.push_back({node, iteration, here, done, true, targets});
  }

  // Fires the ready nodes on recurrences (`recurrent`) or the others, oldest iteration first.
  bool fire_nodes(int64_t cycle, bool recurrent) {
    std::vector<std::pair<int64_t, int>> ready;
    for (int node = 0; node < static_cast<int>(dfg_.nodes.size()); ++node) {
      if (recurrent_[static_cast<std::size_t>(node)] != recurrent) continue;
      const int64_t iteration = fired_[static_cast<std::size_t>(node)];
      if (iteration >= iterations_ || !operands_ready(node, iteration, cycle)) continue;
      if (!has_credit(node, iteration)) {
        ++run_.credit_stalls;
        continue;
      }
      ready.push_back({iteration, node});
    }
    std::sort(ready.begin(), ready.end());
    bool fired = false;
    for (const auto& [iteration, node] : ready) {
      const int64_t at = site_switch(node);
      int64_t& used = slots_used_[static_cast<std::size_t>(at)];
      if (used >= slot_capacity(at)) continue;
      if (router_.is_memory(at)) {
        int64_t& budget = budget_[static_cast<std::size_t>(at - params_.pe.count())];
        if (budget < access_bytes_) continue;
        budget -= access_bytes_;
      }
      ++used;
      fire(node, iteration, cycle);
      fired = true;
    }
    return fired;
  }

  const DataflowParams& params_;
  const Dfg& dfg_;
  const Placement& placement_;
  Router router_;
  int64_t iterations_;
  int64_t access_bytes_;
  int64_t budget_cap_;
  std::vector<std::vector<std::size_t>> inputs_;
  std::vector<std::vector<OutEdge>> outputs_;
  std::vector<std::vector<int64_t>> targets_;  // switches a node's value must reach
  std::vector<std::vector<int64_t>> arrival_;  // per edge and consumer iteration
  std::vector<int64_t> fired_;
  std::vector<bool> recurrent_;
  std::vector<int64_t> budget_;  // scratchpad bytes per memory PE this cycle
  std::vector<int64_t> link_used_;
  std::vector<int64_t> slots_used_;
  std::vector<Packet> packets_;
  TokenRun run_;
};

}  // namespace

TokenRun simulate_tokens(const DataflowParams& params, const Dfg& dfg, const Placement& placement,
                         int64_t iterations, int64_t element_bytes) {
  if (iterations <= 0) return {};
  return TokenSimulation(params, dfg, placement, iterations, element_bytes).run();
}

}  // namespace polyarch::archs::dataflow
