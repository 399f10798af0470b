#pragma once
// dashboard.html: one self-contained page (inline CSS, JS and data; nothing fetched) for a
// sweep: a Pareto scatter of the first two objectives with hover details and a sortable table
// of every (point, workload) result. Data: {"title", "objectives": [{"metric", "minimize"}],
// "columns": points.csv's header, "rows": its rows as JSON values}.
#include <nlohmann/json.hpp>
#include <string>

namespace polyarch::reports {

std::string dashboard_html(const nlohmann::ordered_json& data);

}  // namespace polyarch::reports
