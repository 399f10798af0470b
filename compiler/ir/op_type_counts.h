#pragma once
// How many ops of each type a graph has, and their MACs: the table `polyarch compile` prints.
#include <cstdint>
#include <map>
#include <string>

#include "compiler/ir/graph.h"

namespace polyarch::ir {

struct OpTypeTotals {
  int64_t count = 0;
  int64_t macs = 0;
};

// Keyed by op_type_name(): "conv2d", "gemm", "onnx:MatMul", ...
std::map<std::string, OpTypeTotals> op_type_totals(const Graph& graph);

}  // namespace polyarch::ir
