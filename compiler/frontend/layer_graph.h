#pragma once
// Adds one standalone layer to a graph: its own operand tensors and one output tensor.
// Layer lists and SCALE-Sim topologies describe layers without naming the tensors between
// them, so each layer reads fresh operands named after the op: <op>.in (the activation) and
// <op>.w (gemm's B, conv2d's filters); attention's <op>.q, <op>.k, <op>.v; a norm's <op>.scale
// (and LayerNorm's <op>.bias); an elementwise op with several inputs <op>.in0, <op>.in1, ...
// The result is <op>.out.
#include <cstdint>
#include <string>

#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::NodeId add_standalone_layer(ir::Graph& graph, ir::Op op);

// The name of copy `copy` (1-based) of a repeated layer: <name>.<copy>.
std::string repeated_layer_name(const std::string& name, int64_t copy);

// `repeat` copies of one standalone layer run on the same tensors, as a benchmark looping over
// one set of buffers: every copy reads the first copy's operands, and each later copy's result
// reuses the first copy's result storage (ir::Tensor::storage_of). The copies are independent
// ops that compute the same values, so a scheduler may overlap them as it would any
// independent layers; they add time and traffic, not footprint.
void add_repeated_layer(ir::Graph& graph, ir::Op op, int64_t repeat);

}  // namespace polyarch::frontend
