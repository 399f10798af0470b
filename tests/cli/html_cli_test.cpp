// report.html and dashboard.html through the binary: `polyarch run` writes report.html beside
// report.json with that report embedded, a sweep writes dashboard.html with points.csv's rows,
// and neither loads anything from outside itself (every script inline, no stylesheet links).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class HtmlCliTest : public polyarch::test_support::ScratchDirTest {};

// Every <script> tag without a src attribute (three of them: data, library, page code), and no
// <link>; the library's own text is JavaScript and holds no tags.
void expect_inline_only(const std::string& page) {
  int scripts = 0;
  for (std::size_t at = page.find("<script"); at != std::string::npos;
       at = page.find("<script", at + 1)) {
    ++scripts;
    EXPECT_EQ(page.substr(at, page.find('>', at) - at).find("src"), std::string::npos);
  }
  EXPECT_EQ(scripts, 3);
  EXPECT_EQ(page.find("<link"), std::string::npos);
}

TEST_F(HtmlCliTest, RunWritesReportHtmlEmbeddingReportJson) {
  CommandOutput run = run_polyarch(
      "run --quiet --arch " + source_path("configs/arch/edge_os_32x32.yaml") + " --workload " +
      source_path("workloads/bert_base_gemms.yaml") + " --out " + path("run"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::string page = read_file(dir_ / "run/report.html");
  const std::string open = "<script id=\"report-data\" type=\"application/json\">";
  std::size_t begin = page.find(open);
  ASSERT_NE(begin, std::string::npos);
  begin += open.size();
  auto embedded = nlohmann::json::parse(page.substr(begin, page.find("</script>", begin) - begin));
  EXPECT_EQ(embedded, nlohmann::json::parse(read_file(dir_ / "run/report.json")));
  expect_inline_only(page);
}

TEST_F(HtmlCliTest, SweepWritesDashboardHtmlWithEveryResultRow) {
  write("arch.yaml",
        "name: small\nclock_ghz: 1.0\ntechnology: 28nm\nmemory:\n"
        "  dram: {bandwidth_gbps: 16, latency_ns: 50}\n"
        "units:\n  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n");
  write("layers.yaml", "layers:\n  - {name: proj, op: gemm, m: 64, n: 64, k: 100}\n");
  write("sweep.yaml",
        "base: arch.yaml\nparameters:\n  units.mxu.rows: [4, 8, 16]\nworkloads: [layers.yaml]\n"
        "objectives: {latency_s: min, energy_j: min}\n");
  CommandOutput sweep = run_polyarch("sweep " + path("sweep.yaml") + " --out " + path("out"));
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  std::string page = read_file(dir_ / "out/dashboard.html");
  const std::string open = "<script id=\"sweep-data\" type=\"application/json\">";
  std::size_t begin = page.find(open);
  ASSERT_NE(begin, std::string::npos);
  begin += open.size();
  auto data = nlohmann::json::parse(page.substr(begin, page.find("</script>", begin) - begin));
  EXPECT_EQ(data["rows"].size(), 3u);
  EXPECT_EQ(data["columns"][0], "point_id");
  EXPECT_EQ(data["objectives"][0]["metric"], "latency_s");
  expect_inline_only(page);
}

}  // namespace
