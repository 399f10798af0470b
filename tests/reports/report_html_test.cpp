#include "reports/html/report_html.h"

#include <gtest/gtest.h>

#include "reports/json_report.h"

namespace polyarch::reports {
namespace {

sim::RunResult two_op_run() {
  sim::RunResult result;
  for (const char* name : {"conv1", "</script><b>x"}) {
    sim::OpResult op;
    op.name = name;
    op.kind = "gemm";
    op.unit = "mxu";
    op.total_cycles = 10;
    result.ops.push_back(op);
  }
  sim::UnitResult unit;
  unit.name = "mxu";
  unit.kind = "systolic";
  result.units.push_back(unit);
  return result;
}

std::string embedded_json(const std::string& page) {
  const std::string open = "<script id=\"report-data\" type=\"application/json\">";
  std::size_t begin = page.find(open);
  EXPECT_NE(begin, std::string::npos);
  begin += open.size();
  return page.substr(begin, page.find("</script>", begin) - begin);
}

TEST(ReportHtml, EmbedsTheReportAsJsonThatParsesBackUnchanged) {
  nlohmann::ordered_json report = report_json(two_op_run());
  std::string page = report_html(report);
  EXPECT_EQ(nlohmann::ordered_json::parse(embedded_json(page)), report);
}

TEST(ReportHtml, AnOpNamedLikeAClosingScriptTagCannotEndTheDataEarly) {
  std::string page = report_html(report_json(two_op_run()));
  EXPECT_EQ(embedded_json(page).find('<'), std::string::npos);
  // Two scripts (data, code), each closed once.
  std::size_t closings = 0;
  for (std::size_t at = page.find("</script>"); at != std::string::npos;
       at = page.find("</script>", at + 1)) {
    ++closings;
  }
  EXPECT_EQ(closings, 2u);
}

TEST(ReportHtml, IsSelfContainedWithEveryChartContainer) {
  std::string page = report_html(report_json(two_op_run()));
  // Nothing fetched: no external scripts, styles, images or fonts. (The SVG namespace URI is an
  // identifier, not a request.)
  for (const char* reference : {"src=", "<link", "https://", "@import", "url("}) {
    EXPECT_EQ(page.find(reference), std::string::npos) << reference;
  }
  for (const char* id : {"id=\"latency\"", "id=\"roofline\"", "id=\"power\"", "id=\"temperature\"",
                         "id=\"floorplan\"", "id=\"floorplan-window\"", "id=\"mappings\"",
                         "id=\"attention-forms\""}) {
    EXPECT_NE(page.find(id), std::string::npos) << id;
  }
}

}  // namespace
}  // namespace polyarch::reports
