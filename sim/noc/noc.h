#pragma once
// A network-on-chip as a set of directed links with a bandwidth and a per-hop latency. A
// transfer reserves every link on its route (cut-through: the head moves on after one hop
// latency, the body streams behind it), starting when all of them are free in turn, so two
// transfers that share a link serialise on it while disjoint ones proceed in parallel: link
// contention emerges from the routes. Reservations are kept in call order (no back-filling).
// Times are cycles of the owning unit's clock. Topologies and routing: README.md of
// archs/mimd.
#include <cstdint>
#include <string>
#include <vector>

namespace polyarch::sim {

enum class NocTopology { kMesh, kRing, kCrossbar };
std::string_view noc_topology_name(NocTopology topology);  // "mesh", "ring", "crossbar"

struct NocSpec {
  NocTopology topology = NocTopology::kMesh;
  int64_t nodes = 1;
  int64_t columns = 1;  // mesh width (nodes are numbered row by row); ignored otherwise
  int64_t link_bytes_per_cycle = 32;
  int64_t hop_latency_cycles = 1;
};

class Noc {
 public:
  explicit Noc(NocSpec spec);

  const NocSpec& spec() const { return spec_; }
  // Link ids from `source` to `destination`: mesh XY (along the row first), ring the shorter
  // way (clockwise on a tie), crossbar the source's output port then the destination's input.
  std::vector<int64_t> route(int64_t source, int64_t destination) const;
  int64_t hops(int64_t source, int64_t destination) const;

  // Moves `bytes` from `source` to `destination`, starting no earlier than `earliest_cycle`;
  // returns the cycle its last byte arrives. A transfer to the same node is free.
  int64_t transfer(int64_t source, int64_t destination, int64_t bytes, int64_t earliest_cycle);

  int64_t link_count() const { return static_cast<int64_t>(link_free_at_.size()); }
  int64_t link_bytes(int64_t link) const { return link_bytes_.at(static_cast<std::size_t>(link)); }
  int64_t total_link_bytes() const;  // bytes x hops over all transfers
  void reset();                      // forget reservations and counters (between ops)

 private:
  int64_t link_id(int64_t node, int64_t direction) const;

  NocSpec spec_;
  std::vector<int64_t> link_free_at_;
  std::vector<int64_t> link_bytes_;
};

}  // namespace polyarch::sim
