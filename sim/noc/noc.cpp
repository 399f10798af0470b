#include "sim/noc/noc.h"

#include <algorithm>
#include <cstdlib>

#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::sim {

namespace {

// Directions of a node's outgoing mesh links; ring uses the first two, crossbar port 0 as the
// output and port 1 as the input.
enum Direction : int64_t { kEast = 0, kWest = 1, kNorth = 2, kSouth = 3 };
constexpr int64_t kDirections = 4;

}  // namespace

std::string_view noc_topology_name(NocTopology topology) {
  switch (topology) {
    case NocTopology::kMesh:
      return "mesh";
    case NocTopology::kRing:
      return "ring";
    case NocTopology::kCrossbar:
      return "crossbar";
  }
  return "?";
}

Noc::Noc(NocSpec spec) : spec_(spec) {
  if (spec_.nodes < 1 || spec_.link_bytes_per_cycle < 1 || spec_.hop_latency_cycles < 0) {
    throw_runtime({}, "invalid NoC: nodes, link width and hop latency must be positive");
  }
  if (spec_.topology == NocTopology::kMesh &&
      (spec_.columns < 1 || spec_.nodes % spec_.columns != 0)) {
    throw_runtime({}, "mesh columns must divide the node count");
  }
  reset();
}

void Noc::reset() {
  link_free_at_.assign(static_cast<std::size_t>(spec_.nodes * kDirections), 0);
  link_bytes_.assign(link_free_at_.size(), 0);
}

int64_t Noc::link_id(int64_t node, int64_t direction) const { return node * kDirections + direction; }

std::vector<int64_t> Noc::route(int64_t source, int64_t destination) const {
  std::vector<int64_t> links;
  if (source == destination) return links;
  switch (spec_.topology) {
    case NocTopology::kMesh: {
      int64_t column = source % spec_.columns;
      int64_t row = source / spec_.columns;
      const int64_t to_column = destination % spec_.columns;
      const int64_t to_row = destination / spec_.columns;
      while (column != to_column) {
        const bool east = to_column > column;
        links.push_back(link_id(row * spec_.columns + column, east ? kEast : kWest));
        column += east ? 1 : -1;
      }
      while (row != to_row) {
        const bool south = to_row > row;
        links.push_back(link_id(row * spec_.columns + column, south ? kSouth : kNorth));
        row += south ? 1 : -1;
      }
      break;
    }
    case NocTopology::kRing: {
      const int64_t clockwise = (destination - source + spec_.nodes) % spec_.nodes;
      const bool forward = clockwise <= spec_.nodes - clockwise;
      int64_t node = source;
      while (node != destination) {
        links.push_back(link_id(node, forward ? kEast : kWest));
        node = (node + (forward ? 1 : spec_.nodes - 1)) % spec_.nodes;
      }
      break;
    }
    case NocTopology::kCrossbar:
      links.push_back(link_id(source, kEast));
      links.push_back(link_id(destination, kWest));
      break;
  }
  return links;
}

int64_t Noc::hops(int64_t source, int64_t destination) const {
  return static_cast<int64_t>(route(source, destination).size());
}

int64_t Noc::transfer(int64_t source, int64_t destination, int64_t bytes, int64_t earliest_cycle) {
  if (bytes <= 0 || source == destination) return earliest_cycle;
  const std::vector<int64_t> links = route(source, destination);
  const int64_t serialization = ceil_div(bytes, spec_.link_bytes_per_cycle);
  // The head reaches link k k hop latencies after it starts: start when every link is free by
  // then.
  int64_t start = earliest_cycle;
  for (std::size_t k = 0; k < links.size(); ++k) {
    const int64_t offset = static_cast<int64_t>(k) * spec_.hop_latency_cycles;
    start = std::max(start, link_free_at_[static_cast<std::size_t>(links[k])] - offset);
  }
  for (std::size_t k = 0; k < links.size(); ++k) {
    const auto link = static_cast<std::size_t>(links[k]);
    link_free_at_[link] = start + static_cast<int64_t>(k) * spec_.hop_latency_cycles + serialization;
    link_bytes_[link] = checked_add(link_bytes_[link], bytes, "NoC bytes");
  }
  return start + static_cast<int64_t>(links.size()) * spec_.hop_latency_cycles + serialization;
}

int64_t Noc::total_link_bytes() const {
  int64_t total = 0;
  for (int64_t bytes : link_bytes_) total = checked_add(total, bytes, "NoC bytes");
  return total;
}

}  // namespace polyarch::sim
