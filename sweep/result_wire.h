#pragma once
// What a sweep worker process sends back to its parent: the parts of a RunResult that the
// results database stores, as JSON text. Doubles round-trip exactly (nlohmann writes the
// shortest representation that parses back to the same value), so rows do not depend on -j.
#include <string>

#include "sim/result.h"

namespace polyarch::sweep {

std::string encode_run_result(const sim::RunResult& result);
// Throws a runtime error when the text is not what encode_run_result writes.
sim::RunResult decode_run_result(const std::string& text);

}  // namespace polyarch::sweep
