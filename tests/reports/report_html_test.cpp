#include "reports/html/report_html.h"

#include <gtest/gtest.h>

#include "reports/html/page_assets.h"
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
  // Three scripts (data, charting library, page code), each closed once.
  std::size_t closings = 0;
  for (std::size_t at = page.find("</script>"); at != std::string::npos;
       at = page.find("</script>", at + 1)) {
    ++closings;
  }
  EXPECT_EQ(closings, 3u);
}

TEST(ReportHtml, IsSelfContainedWithEveryChartContainer) {
  std::string page = report_html(report_json(two_op_run()));
  // The charting library is inline, once; the library's own text mentions URLs (its docs'
  // links, an "open in editor" action the page turns off), so it is taken out before looking
  // for references in the rest. The browser test refuses every request the page makes.
  std::string library = std::string(html::kVegaJs) + "\n" + std::string(html::kVegaLiteJs) + "\n" +
                        std::string(html::kVegaEmbedJs) + "\n";
  std::size_t at = page.find(library);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(page.find(library, at + 1), std::string::npos);
  page.erase(at, library.size());
  // Nothing fetched: no external scripts, styles, images or fonts.
  for (const char* reference : {"src=", "<link", "http://", "https://", "@import", "url("}) {
    EXPECT_EQ(page.find(reference), std::string::npos) << reference;
  }
  for (const char* id :
       {"id=\"timeline\"", "id=\"compute-stall\"", "id=\"utilization\"", "id=\"roofline\"",
        "id=\"energy-units\"", "id=\"energy-ops\"", "id=\"dram-bandwidth\"", "id=\"power\"",
        "id=\"temperature\"", "id=\"floorplan\"", "id=\"mappings\"", "id=\"attention-forms\""}) {
    EXPECT_NE(page.find(id), std::string::npos) << id;
  }
}

}  // namespace
}  // namespace polyarch::reports
