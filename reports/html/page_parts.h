#pragma once
// The parts report.html and dashboard.html share: the head with the page style, and the
// scripts (the charting library, then charts.js, then the page's own script) after the data.
#include <string>
#include <string_view>

namespace polyarch::reports::html {

// "<!doctype html>" through "<body>": the title, the charset and the inline style.
std::string page_head(std::string_view title);

// The charting library in one <script>, the chart helpers (charts.js) and the page's script in
// another, then the end of the page.
std::string page_scripts(std::string_view page_script);

}  // namespace polyarch::reports::html
