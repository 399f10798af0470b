#pragma once
// The short table `polyarch run` prints: one line per op and a summary line.
#include <string>

#include "sim/result.h"

namespace polyarch::reports {

// At most `max_ops` op rows (the slowest are not picked; rows keep execution order and a final
// line says how many were left out).
std::string summary_table(const sim::RunResult& result, std::size_t max_ops = 60);

// The ops `run --only-supported` left out: a count with their MACs and bytes, then one line each
// (at most `max_ops`); empty when none was.
std::string skipped_ops_text(const sim::RunResult& result, std::size_t max_ops = 20);

}  // namespace polyarch::reports
