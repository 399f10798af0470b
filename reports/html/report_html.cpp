#include "reports/html/report_html.h"

#include "reports/html/page_assets.h"
#include "reports/html/page_parts.h"

namespace polyarch::reports {

std::string json_for_script(const nlohmann::ordered_json& data) {
  // '<' appears only inside JSON strings, where \u003c means the same character.
  std::string text = data.dump();
  std::string safe;
  safe.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      safe += "\\u003c";
    } else {
      safe += c;
    }
  }
  return safe;
}

std::string report_html(const nlohmann::ordered_json& report) {
  std::string page = html::page_head("polyarch report");
  page +=
      "<h1>polyarch report</h1><p id=\"summary\"></p>\n"
      "<p class=\"note\">Hover a mark for its values; drag or scroll on a chart to pan and zoom, "
      "double-click to reset; the &hellip; menu saves a chart as SVG or PNG.</p>\n"
      "<h2>Timeline by unit</h2><div id=\"timeline\"></div>\n"
      "<h2>Compute and stall cycles per op</h2><div id=\"compute-stall\"></div>\n"
      "<h2>Utilisation</h2><div id=\"utilization\"></div>\n"
      "<h2>Roofline per unit</h2><p class=\"note\" id=\"roofline-note\"></p>"
      "<div id=\"roofline\"></div>\n"
      "<h2>Energy per unit, by action</h2><div id=\"energy-units\"></div>\n"
      "<h2>Energy per op, by action</h2><div id=\"energy-ops\"></div>\n"
      "<h2>DRAM bandwidth over time</h2><p class=\"note\">Each op's DRAM bytes spread evenly "
      "over the time it ran.</p><div id=\"dram-bandwidth\"></div>\n"
      "<h2>Power over time</h2><div id=\"power\"></div>\n"
      "<h2>Temperature over time</h2><div id=\"temperature\"></div>\n"
      "<h2>Floorplan temperature</h2><p class=\"note\" id=\"floorplan-note\"></p>"
      "<div id=\"floorplan\"></div>\n"
      "<h2>Mapping per op</h2><div id=\"mappings\"></div>\n"
      "<h2>Attention forms</h2><div id=\"attention-forms\"></div>\n"
      "<script id=\"report-data\" type=\"application/json\">";
  page += json_for_script(report);
  page += "</script>\n";
  page += html::page_scripts(html::kReportPageJs);
  return page;
}

}  // namespace polyarch::reports
