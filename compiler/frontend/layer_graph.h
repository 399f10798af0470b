#pragma once
// Adds one standalone layer to a graph: its own operand tensors and one output tensor.
// Layer lists and SCALE-Sim topologies describe layers without naming the tensors between
// them, so each layer reads fresh operands named after the op: <op>.in (the activation) and
// <op>.w (gemm's B, conv2d's filters); attention's <op>.q, <op>.k, <op>.v; a norm's <op>.scale
// (and LayerNorm's <op>.bias); an elementwise op with several inputs <op>.in0, <op>.in1, ...
// The result is <op>.out.
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::NodeId add_standalone_layer(ir::Graph& graph, ir::Op op);

}  // namespace polyarch::frontend
