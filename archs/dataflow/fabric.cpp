#include "archs/dataflow/fabric.h"

#include <algorithm>
#include <cstdlib>

namespace polyarch::archs::dataflow {

namespace {

enum Direction : int64_t { kEast = 0, kWest = 1, kSouth = 2, kNorth = 3 };

}  // namespace

Fabric::Fabric(const DataflowParams& params)
    : rows_(params.pe.rows),
      cols_(params.pe.cols),
      memory_count_(params.memory.count),
      torus_(params.network.topology == Topology::kTorus) {}

int64_t Fabric::link_count() const { return pe_count() * 4 + memory_count_ * 2; }

int64_t Fabric::memory_side(int64_t memory_index) const {
  const int64_t perimeter = 2 * (rows_ + cols_);
  // Spread evenly: fewer memory PEs than perimeter slots leave gaps between them.
  const int64_t slot = memory_count_ < perimeter ? memory_index * perimeter / memory_count_
                                                 : memory_index % perimeter;
  if (slot < cols_) return 0;
  if (slot < 2 * cols_) return 1;
  if (slot < 2 * cols_ + rows_) return 2;
  return 3;
}

int64_t Fabric::attach_pe(int64_t memory_index) const {
  const int64_t perimeter = 2 * (rows_ + cols_);
  const int64_t slot = memory_count_ < perimeter ? memory_index * perimeter / memory_count_
                                                 : memory_index % perimeter;
  if (slot < cols_) return slot;                                      // top edge
  if (slot < 2 * cols_) return (rows_ - 1) * cols_ + (slot - cols_);  // bottom edge
  if (slot < 2 * cols_ + rows_) return (slot - 2 * cols_) * cols_;    // left edge
  return (slot - 2 * cols_ - rows_) * cols_ + cols_ - 1;              // right edge
}

int64_t Fabric::axis_hops(int64_t from, int64_t to, int64_t size) const {
  const int64_t direct = std::llabs(to - from);
  return torus_ ? std::min(direct, size - direct) : direct;
}

int64_t Fabric::hops(const Site& from, const Site& to) const {
  if (from.memory && to.memory && from.index == to.index) return 0;
  const int64_t from_pe = from.memory ? attach_pe(from.index) : from.index;
  const int64_t to_pe = to.memory ? attach_pe(to.index) : to.index;
  const int64_t grid = axis_hops(from_pe % cols_, to_pe % cols_, cols_) +
                       axis_hops(from_pe / cols_, to_pe / cols_, rows_);
  return grid + (from.memory ? 1 : 0) + (to.memory ? 1 : 0);
}

void Fabric::grid_route(int64_t from_pe, int64_t to_pe, std::vector<int64_t>& links) const {
  int64_t row = from_pe / cols_;
  int64_t col = from_pe % cols_;
  const int64_t to_row = to_pe / cols_;
  const int64_t to_col = to_pe % cols_;
  // One axis: step towards the target, the shorter way round on a torus.
  auto walk = [&](int64_t& at, int64_t target, int64_t size, Direction up, Direction down) {
    while (at != target) {
      int64_t step = target > at ? 1 : -1;
      if (torus_ && std::llabs(target - at) * 2 > size) step = -step;
      const int64_t pe = row * cols_ + col;
      links.push_back(pe * 4 + (step > 0 ? up : down));
      at = (at + step + size) % size;
    }
  };
  walk(col, to_col, cols_, kEast, kWest);
  walk(row, to_row, rows_, kSouth, kNorth);
}

std::vector<int64_t> Fabric::route(const Site& from, const Site& to) const {
  std::vector<int64_t> links;
  if (from.memory && to.memory && from.index == to.index) return links;
  const int64_t memory_links = pe_count() * 4;
  if (from.memory) links.push_back(memory_links + from.index * 2);  // memory PE -> its edge PE
  const int64_t from_pe = from.memory ? attach_pe(from.index) : from.index;
  const int64_t to_pe = to.memory ? attach_pe(to.index) : to.index;
  grid_route(from_pe, to_pe, links);
  if (to.memory) links.push_back(memory_links + to.index * 2 + 1);  // edge PE -> memory PE
  return links;
}

}  // namespace polyarch::archs::dataflow
