#pragma once
// report.html: one self-contained page (inline CSS, JS and data; nothing fetched) for a single
// run: per-op latency by unit on the timeline, a roofline, power and temperature over time, and
// a floorplan heat map with a time slider. Built from report.json's content, embedded as JSON.
#include <nlohmann/json.hpp>
#include <string>

namespace polyarch::reports {

std::string report_html(const nlohmann::ordered_json& report);

// JSON text safe inside <script type="application/json">: '<' is written as \u003c so no
// "</script>" in a layer name can end the element early.
std::string json_for_script(const nlohmann::ordered_json& data);

}  // namespace polyarch::reports
