#include "reports/html/dashboard_html.h"

#include "reports/html/page_assets.h"
#include "reports/html/page_parts.h"
#include "reports/html/report_html.h"

namespace polyarch::reports {

std::string dashboard_html(const nlohmann::ordered_json& data) {
  std::string page = html::page_head("polyarch sweep");
  page +=
      "<h1>polyarch sweep</h1><p id=\"summary\"></p>\n"
      "<p class=\"note\">Hover a point for its values, click it to open its report (written by "
      "<code>polyarch sweep show</code>); drag or scroll to pan and zoom, double-click to "
      "reset. The filters apply to every view.</p>\n"
      "<h2>Filters</h2><div id=\"filters\"></div>\n"
      "<h2>Objectives</h2><div id=\"axes\"></div><div id=\"pareto\"></div>\n"
      "<h2>Parallel coordinates</h2><p class=\"note\">One line per point across the swept "
      "parameters and the objectives; each axis spans its values among all points.</p>"
      "<div id=\"parallel\"></div>\n"
      "<h2>Sensitivity</h2><p class=\"note\">Per parameter value: the mean, lowest and highest "
      "colour objective over the points shown.</p><div id=\"sensitivity\"></div>\n"
      "<h2>Points (click a column to sort)</h2><div id=\"points\"></div>\n"
      "<script id=\"sweep-data\" type=\"application/json\">";
  page += json_for_script(data);
  page += "</script>\n";
  page += html::page_scripts(html::kDashboardPageJs);
  return page;
}

}  // namespace polyarch::reports
