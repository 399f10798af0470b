#pragma once
// `polyarch compile --json FILE`: what the compiler did and what came out, as JSON — each pass
// with its op counts and counters, one row per op of the compiled graph, and the totals.
// Deterministic: no timings or paths that vary between runs, keys in a fixed order.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/passes/pass_manager.h"

namespace polyarch::lower {

// The document; the driver adds the mapping decisions when it has a target.
nlohmann::ordered_json compile_json(const std::string& workload, const ir::Graph& graph,
                         const std::vector<passes::PassRecord>& records);

}  // namespace polyarch::lower
