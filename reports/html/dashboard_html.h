#pragma once
// dashboard.html: one self-contained page (the charting library, CSS, JS and data inline;
// nothing fetched) for a sweep: the objectives' scatter, parallel coordinates, per-parameter
// sensitivity and one table row per point, all following the filters (dashboard_page.js). Data:
// {"objectives": [{"metric", "minimize"}], "columns": points.csv's header, "rows": its
// rows as JSON values}.
#include <nlohmann/json.hpp>
#include <string>

namespace polyarch::reports {

std::string dashboard_html(const nlohmann::ordered_json& data);

}  // namespace polyarch::reports
