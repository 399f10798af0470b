#pragma once
// The lines `polyarch run` prints about the heterogeneous schedule: transfers between units,
// the single-unit baselines and the pipeline against un-pipelined inputs.
#include <string>

#include "sim/result.h"

namespace polyarch::reports {

// Empty without a schedule trace (one unit, one micro-batch).
std::string schedule_summary(const sim::RunResult& result);

}  // namespace polyarch::reports
