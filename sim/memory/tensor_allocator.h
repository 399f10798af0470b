#pragma once
// Where the workload's tensors live in DRAM: every tensor of the graph gets a base address, one
// after another in a deterministic order (the graph's node order), each aligned to a 4 KiB page
// so that a tensor starts on a page of its own, as an allocator handing out pages would place
// it. All tensors are live at once (no reuse of activation memory between layers), so the
// footprint is an upper bound on what the workload needs; only a tensor that names another's
// storage (ir::Tensor::storage_of: a repeated layer's result) shares its address. SystemC-free.
#include <cstdint>
#include <string>
#include <vector>

#include "base/error.h"
#include "compiler/ir/graph.h"
#include "compiler/ir/stored_operands.h"
#include "sim/memory/address_range.h"

namespace polyarch::sim {

struct TensorPlacement {
  std::string name;
  std::string role;  // "weight", "activation", "kv_cache" (an attention op's K or V), "output"
  int64_t base_address = 0;
  int64_t bytes = 0;
};

class TensorAllocation {
 public:
  static constexpr int64_t kAlignmentBytes = 4096;

  // Places every tensor of `graph`, each as large as it is stored (ir::stored_tensor_bytes;
  // `unit_dtype`: the type the unit running an op that names none computes it in).
  explicit TensorAllocation(const ir::Graph& graph, const ir::UnitDType& unit_dtype = {});

  const std::vector<TensorPlacement>& tensors() const { return tensors_; }
  // Bytes from address 0 to the end of the last tensor (alignment padding included).
  int64_t footprint_bytes() const { return footprint_bytes_; }
  // The ranges the op node `op` reads and writes; both empty for an op without tensors.
  OpRanges ranges_of(ir::NodeId op) const;

 private:
  const ir::Graph& graph_;
  std::vector<TensorPlacement> tensors_;
  std::vector<int> placement_of_node_;  // -1: not a tensor
  int64_t footprint_bytes_ = 0;
};

// A bad-input error at `where` when the footprint exceeds `capacity_bytes`, naming both.
void require_capacity(const TensorAllocation& allocation, const std::string& workload_name,
                      int64_t capacity_bytes, const SourceLocation& where);

}  // namespace polyarch::sim
