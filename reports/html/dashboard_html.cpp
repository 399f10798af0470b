#include "reports/html/dashboard_html.h"

#include "reports/html/dashboard_page_script.h"
#include "reports/html/report_html.h"

namespace polyarch::reports {

std::string dashboard_html(const nlohmann::ordered_json& data) {
  std::string page =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>polyarch sweep</title><style>";
  page += html::kDashboardCss;
  page +=
      "</style></head><body>\n<h1>polyarch sweep</h1><p id=\"summary\"></p>\n"
      "<h2>Pareto front (red) among all points</h2><div id=\"hover\"></div>"
      "<div id=\"pareto\"></div>\n<h2>Results (click a column to sort)</h2>"
      "<div id=\"points\"></div>\n<script id=\"sweep-data\" type=\"application/json\">";
  page += json_for_script(data);
  page += "</script>\n<script>";
  page += html::kDashboardScript;
  page += "</script>\n</body></html>\n";
  return page;
}

}  // namespace polyarch::reports
