#pragma once
// The per-op table and totals `polyarch compile` prints for a lowered graph.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::lower {

struct OpRow {
  std::string name;
  std::string kind;   // op_type_name: "conv2d", "gemm", ... ("onnx:X" if not lowered)
  std::string shape;  // "[1,3,224,224] -> [1,64,112,112]": first operand and first result
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t bytes = 0;
};

struct GraphTotals {
  int64_t ops = 0;
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t bytes = 0;
  // Elements of the distinct weight tensors (initializers) that ops other than views read:
  // the model's parameter count.
  int64_t parameters = 0;
  // MACs by the type they run in: the op's type ("native" for an op that takes its unit's),
  // with the storage of weights or KV cache it reads where that is narrower, e.g.
  // "fp16 (int4 weights)", "bf16 (fp8_e4m3 KV)".
  std::map<std::string, int64_t> macs_by_type;
};

// The key an op's MACs are counted under in GraphTotals::macs_by_type.
std::string mac_type_label(const ir::Op& op);

// One row per op in topological order; bytes at fp32 for ops without a dtype.
std::vector<OpRow> op_rows(const ir::Graph& graph);
GraphTotals graph_totals(const ir::Graph& graph);

// Fixed-width text: a header, the rows, then the totals.
std::string format_op_table(const std::vector<OpRow>& rows, const GraphTotals& totals);

}  // namespace polyarch::lower
