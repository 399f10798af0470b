#pragma once
// The short table `polyarch run` prints: one line per op and a summary line.
#include <string>

#include "sim/result.h"

namespace polyarch::reports {

// At most `max_ops` op rows (the slowest are not picked; rows keep execution order and a final
// line says how many were left out).
std::string summary_table(const sim::RunResult& result, std::size_t max_ops = 60);

}  // namespace polyarch::reports
