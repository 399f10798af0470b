#include "reports/html/report_html.h"

#include "reports/html/report_page_script.h"

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
  std::string page =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>polyarch report</title><style>";
  page += html::kReportCss;
  page +=
      "</style></head><body>\n<h1>polyarch report</h1><p id=\"summary\"></p>\n"
      "<h2>Latency per op (timeline, coloured by unit)</h2><div id=\"latency-legend\"></div>"
      "<div id=\"latency\"></div>\n"
      "<h2>Energy per op (coloured by unit)</h2><div id=\"energy-ops\"></div>\n"
      "<h2>Energy per unit, by action</h2><div id=\"energy-units\"></div>\n"
      "<h2>Roofline</h2><div id=\"roofline\"></div>\n"
      "<h2>Mapping per op</h2><div id=\"mappings\"></div>\n"
      "<h2>Attention forms</h2><div id=\"attention-forms\"></div>\n"
      "<h2>Power (W) over time</h2><div id=\"series-legend\"></div><div id=\"power\"></div>\n"
      "<h2>Temperature (&deg;C) over time</h2><div id=\"temperature\"></div>\n"
      "<h2>Floorplan temperature</h2><input id=\"floorplan-window\" type=\"range\" min=\"0\" "
      "max=\"0\" value=\"0\" aria-label=\"power window\"><div id=\"floorplan\"></div>\n"
      "<script id=\"report-data\" type=\"application/json\">";
  page += json_for_script(report);
  page += "</script>\n<script>";
  page += html::kReportScript;
  page += "</script>\n</body></html>\n";
  return page;
}

}  // namespace polyarch::reports
