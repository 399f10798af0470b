#pragma once
// report.json, schema "polyarch.report/1". The keys listed in DESIGN.md are stable from v1 on;
// later versions may add keys but never rename or remove one. docs/report_schema.md documents them.
#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace polyarch::reports {

inline constexpr const char* kReportSchema = "polyarch.report/1";

nlohmann::ordered_json report_json(const sim::RunResult& result);

}  // namespace polyarch::reports
