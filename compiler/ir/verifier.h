#pragma once
// The IR's invariants, checked after every pass in debug builds and tests (and on every graph
// read from the text IR): every operand is defined by one op or is a graph input/weight, the
// graph is acyclic, op and tensor names are unique, canonical ops' attributes are valid, and a
// Gemm's or Conv2d's known operands and results hold as many elements as its attributes say.
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::ir {

// What is wrong with the graph, one sentence per problem naming the op or tensor; empty when
// it holds every invariant.
std::vector<std::string> verify_graph(const Graph& graph);

}  // namespace polyarch::ir
