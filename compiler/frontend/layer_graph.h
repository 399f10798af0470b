#pragma once
// Adds one standalone layer to a graph: its own input activation, weight and output tensors.
// Layer lists and SCALE-Sim topologies describe layers without naming the tensors between
// them, so each layer reads fresh inputs (named <op>.in, <op>.w, <op>.out).
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::NodeId add_standalone_layer(ir::Graph& graph, ir::Op op);

}  // namespace polyarch::frontend
