#pragma once
// ops.csv: one row per op with the stable per-op metrics, for spreadsheets and plotting.
#include <string>

#include "sim/result.h"

namespace polyarch::reports {

std::string ops_csv(const sim::RunResult& result);

}  // namespace polyarch::reports
