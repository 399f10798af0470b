#pragma once
// Workloads written in the text IR (`polyarch compile --emit-ir`): the graph exactly as it was
// printed, compiled or not. Constants over a few dozen elements carry no values, so such a
// graph can be timed but not executed.
#include <filesystem>

#include "compiler/ir/graph.h"

namespace polyarch::frontend {

// The graph in the .ir file; an unreadable file or malformed text is a bad-input error at its
// file:line:col.
ir::Graph load_ir_file(const std::filesystem::path& path);

}  // namespace polyarch::frontend
