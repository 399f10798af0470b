// `polyarch run --pipeline-batches N`: N inputs pipelined over the mixed SoC's units, the
// schedule (transfers, baselines, pipeline) in report.json and in the printed summary.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class PipelineBatchesCliTest : public polyarch::test_support::ScratchDirTest {
 protected:
  std::string command(const std::string& extra) {
    return "run --arch " + source_path("configs/arch/mixed_soc.yaml") + " --workload " +
           source_path("workloads/models/bert_base.yaml") + " --out " + path("out") + " " + extra;
  }
};

TEST_F(PipelineBatchesCliTest, ReportAndSummaryCarryThePipeline) {
  const auto result = run_polyarch(command("--pipeline-batches 3"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("pipeline of 3 micro-batches"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("transfers between units"), std::string::npos) << result.output;
  const auto report = nlohmann::json::parse(read_file(path("out/report.json")));
  EXPECT_EQ(report["schedule"]["pipeline"]["micro_batches"], 3);
  EXPECT_GT(report["schedule"]["pipeline"]["speedup"].get<double>(), 1.0);
  EXPECT_EQ(report["ops"].back()["name"].get<std::string>().find('#') != std::string::npos, true);
}

TEST_F(PipelineBatchesCliTest, ANonIntegerCountIsBadInput) {
  for (const std::string bad : {"0", "2.5", "x"}) {
    const auto result = run_polyarch(command("--pipeline-batches " + bad));
    EXPECT_EQ(result.exit_code, 2) << bad;
    EXPECT_NE(result.output.find("--pipeline-batches"), std::string::npos) << result.output;
  }
}

}  // namespace
