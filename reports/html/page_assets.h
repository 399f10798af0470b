#pragma once
// The text report.html and dashboard.html carry inline, compiled in from files by
// cmake/EmbedText.cmake (reports/CMakeLists.txt lists them). Constant bytes: the same program
// writes the same pages.
#include <string_view>

namespace polyarch::reports::html {

// The charting library, unchanged from its npm packages (third_party/README.md), to be loaded
// in this order: Vega, then Vega-Lite (which compiles to Vega), then vega-embed.
extern const std::string_view kVegaJs;
extern const std::string_view kVegaLiteJs;
extern const std::string_view kVegaEmbedJs;

extern const std::string_view kPageCss;          // reports/html/page.css, both pages' style
extern const std::string_view kChartsJs;         // reports/html/charts.js, shared chart helpers
extern const std::string_view kReportPageJs;     // reports/html/report_page.js
extern const std::string_view kDashboardPageJs;  // reports/html/dashboard_page.js

}  // namespace polyarch::reports::html
