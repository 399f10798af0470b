#pragma once
// A compiler pass: one named graph transformation. Passes run in a PassManager, which records
// the op count around each pass and can dump the IR after it; fusion, layout, precision and
// sparsity passes slot in as further Pass implementations.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "compiler/ir/graph.h"

namespace polyarch::passes {

// What a pass did, as named counters ("folded": 12, "erased": 3), printed after the pass.
struct PassStatistics {
  std::map<std::string, int64_t> counters;

  void add(const std::string& counter, int64_t amount = 1) { counters[counter] += amount; }
  int64_t get(const std::string& counter) const {
    const auto found = counters.find(counter);
    return found == counters.end() ? 0 : found->second;
  }
};

class Pass {
 public:
  virtual ~Pass() = default;
  // Short, stable name used by `--dump-ir NAME`: "fold-constants", "dce", ...
  virtual std::string_view name() const = 0;
  // Rewrites the graph; errors in the model are bad-input errors naming the node.
  virtual PassStatistics run(ir::Graph& graph) = 0;
};

}  // namespace polyarch::passes
