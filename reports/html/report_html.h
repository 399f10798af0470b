#pragma once
// report.html: one self-contained page (the charting library, CSS, JS and data inline; nothing
// fetched) for a single run: timeline, cycles, utilisation, rooflines, energy, DRAM bandwidth,
// power, temperature and floorplan charts and the mapping tables (report_page.js), drawn from
// report.json's content, embedded as JSON.
#include <nlohmann/json.hpp>
#include <string>

namespace polyarch::reports {

std::string report_html(const nlohmann::ordered_json& report);

// JSON text safe inside <script type="application/json">: '<' is written as \u003c so no
// "</script>" in a layer name can end the element early.
std::string json_for_script(const nlohmann::ordered_json& data);

}  // namespace polyarch::reports
