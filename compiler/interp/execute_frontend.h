#pragma once
// An imported ONNX node executed as it stands, so the interpreter can run a graph at any point
// of the pass pipeline (before folding, shape inference and lowering too) and tests can hold
// each pass to "does not change results". Result shapes come from the ONNX shape rules applied
// to the operands' actual shapes and values; the node then runs through the constant
// evaluator (shape chains, masks, data movement) or, for compute, through its lowering rule
// and the canonical op's kernel — the same code the lowered graph runs.
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/graph.h"

namespace polyarch::interp {

// `operands` are the op's graph inputs in order (the present ONNX operands). Returns one value
// per result tensor, each with its shape and element type.
std::vector<DenseTensor> execute_frontend_op(const ir::Graph& graph, ir::NodeId op_id,
                                             const std::vector<const DenseTensor*>& operands);

}  // namespace polyarch::interp
