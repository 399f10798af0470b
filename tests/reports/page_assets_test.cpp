// The text compiled into the program (cmake/EmbedText.cmake) against the files it came from:
// the charting library must reach the pages byte for byte as vendored in third_party/, less
// the source-map comment the embedding leaves out (the maps are not shipped).
#include "reports/html/page_assets.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_polyarch.h"

namespace polyarch::reports::html {
namespace {

std::string source_file(const std::string& relative) {
  return test_support::read_file(test_support::source_path(relative));
}

// The file less a last line starting "//# sourceMappingURL=", if it has one.
std::string without_source_map(const std::string& text) {
  std::size_t at = text.rfind("\n//# sourceMappingURL=");
  if (at == std::string::npos || text.find('\n', at + 1) < text.size() - 1) return text;
  return text.substr(0, at + 1);
}

TEST(PageAssets, LibraryIsTheVendoredFilesByteForByte) {
  const std::string vega = source_file("third_party/vega/vega.min.js");
  const std::string lite = source_file("third_party/vega-lite/vega-lite.min.js");
  const std::string embed = source_file("third_party/vega-embed/vega-embed.min.js");
  // Sizes as published on npm (third_party/*/README.md gives their sha256).
  EXPECT_EQ(vega.size(), 521123u);
  EXPECT_EQ(lite.size(), 257954u);
  EXPECT_EQ(embed.size(), 60298u);
  EXPECT_EQ(kVegaJs, without_source_map(vega));
  EXPECT_EQ(kVegaLiteJs, without_source_map(lite));
  EXPECT_EQ(kVegaEmbedJs, without_source_map(embed));
  // Two of the three end in a source-map comment, which is left out.
  EXPECT_LT(kVegaLiteJs.size(), lite.size());
  EXPECT_EQ(kVegaLiteJs.find("sourceMappingURL"), std::string_view::npos);
}

TEST(PageAssets, NonAsciiBytesSurviveTheEmbedding) {
  // The page scripts write units such as °C; the escapes must keep their UTF-8 bytes.
  const std::string script = source_file("reports/html/report_page.js");
  EXPECT_NE(script.find("\xc2\xb0"
                        "C"),
            std::string::npos);
  EXPECT_EQ(kReportPageJs, script);
  EXPECT_EQ(kDashboardPageJs, source_file("reports/html/dashboard_page.js"));
  EXPECT_EQ(kChartsJs, source_file("reports/html/charts.js"));
  EXPECT_EQ(kPageCss, source_file("reports/html/page.css"));
}

}  // namespace
}  // namespace polyarch::reports::html
