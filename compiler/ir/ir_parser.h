#pragma once
// Reads the text IR that print_graph writes (grammar: docs/ir.md) back into a graph:
// print_graph(parse_ir(print_graph(g))) == print_graph(g).
#include <string>
#include <string_view>

#include "compiler/ir/graph.h"

namespace polyarch::ir {

// The graph `text` describes. `file` names it in errors ("model.ir:12:7: expected ..."), and
// its stem is the graph's name when the text has no `graph` line. Malformed text, an unknown
// op type, an undefined or twice-defined %name and an operand whose written shape differs
// from its definition are bad-input errors at their line and column; canonical ops are
// validated like any frontend's.
Graph parse_ir(std::string_view text, const std::string& file);

}  // namespace polyarch::ir
