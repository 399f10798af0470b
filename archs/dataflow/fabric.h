#pragma once
// The fabric's geometry: compute PEs on a rows x cols grid, memory PEs attached to PEs on the
// grid's edges (spread evenly round the perimeter), directed links between neighbours (mesh, or
// torus with wrap-around links) and one link each way between a memory PE and its edge PE.
// Routes are dimension-ordered (along the row first, then the column; on a torus the shorter
// way round), so every value's path is fixed by its endpoints.
#include <cstdint>
#include <vector>

#include "archs/dataflow/params.h"

namespace polyarch::archs::dataflow {

// Where a DFG node sits: a compute PE (index row * cols + col) or a memory PE.
struct Site {
  bool memory = false;
  int64_t index = 0;

  bool operator==(const Site&) const = default;
};

class Fabric {
 public:
  explicit Fabric(const DataflowParams& params);

  int64_t pe_count() const { return rows_ * cols_; }
  int64_t memory_count() const { return memory_count_; }
  int64_t link_count() const;
  bool is_memory_link(int64_t link) const { return link >= pe_count() * 4; }
  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  // The edge PE a memory PE attaches to.
  int64_t attach_pe(int64_t memory_index) const;
  // Perimeter position of a memory PE: side (0 top, 1 bottom, 2 left, 3 right) and offset.
  int64_t memory_side(int64_t memory_index) const;
  // Links a value crosses from `from` to `to` (0 when both are the same compute PE).
  int64_t hops(const Site& from, const Site& to) const;
  // The links of that route, in order (ids in [0, link_count())).
  std::vector<int64_t> route(const Site& from, const Site& to) const;

 private:
  int64_t axis_hops(int64_t from, int64_t to, int64_t size) const;
  // Appends the dimension-ordered route between two compute PEs.
  void grid_route(int64_t from_pe, int64_t to_pe, std::vector<int64_t>& links) const;

  int64_t rows_;
  int64_t cols_;
  int64_t memory_count_;
  bool torus_;
};

}  // namespace polyarch::archs::dataflow
