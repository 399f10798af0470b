#pragma once
// What the registries hold, as the help texts name it: so a new unit kind, searcher or pass
// shows up in `--help` by being registered, not by editing the help.
#include <string>

#include "compiler/ir/op.h"

namespace polyarch::driver {

// Every unit kind, in registry order: "systolic, simd, ...".
std::string unit_kind_list();

// The unit kinds whose convolution engines prefer `layout`, in registry order.
std::string unit_kinds_preferring(ir::Layout layout);

// The mapping searchers: "exhaustive, random, ...".
std::string searcher_list();

// The compiler passes with their one-line docs, one per line, from the pass registry.
std::string pass_list_help();

}  // namespace polyarch::driver
