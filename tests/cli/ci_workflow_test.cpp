// The CI example (.github/workflows/sweep.yml) must keep working as the CLI changes: every
// polyarch command its unconditional steps run is run here, from the source tree with outputs
// redirected to a scratch directory, and the files it uploads must exist afterwards.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "base/config_tree.h"
#include "tests/support/replace_all.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using polyarch::ConfigNode;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::replace_all;
using polyarch::test_support::run_command;
using polyarch::test_support::source_path;

class CiWorkflowTest : public polyarch::test_support::ScratchDirTest {};

TEST_F(CiWorkflowTest, SweepWorkflowCommandsRunAndProduceTheUploadedFiles) {
  ConfigNode workflow = polyarch::load_config_file(source_path(".github/workflows/sweep.yml"));
  const ConfigNode* steps = workflow.find("jobs")->find("sweep")->find("steps");
  ASSERT_NE(steps, nullptr);
  std::vector<std::string> uploads;
  int commands = 0;
  for (const ConfigNode& step : steps->items()) {
    const ConfigNode* uses = step.find("uses");
    const bool upload = uses != nullptr && uses->scalar().rfind("actions/upload-artifact", 0) == 0;
    if (const ConfigNode* with = step.find("with");
        upload && with != nullptr && with->find("path")) {
      std::string paths = with->find("path")->scalar();
      for (std::size_t start = 0, end; start < paths.size(); start = end + 1) {
        end = paths.find('\n', start);
        if (end == std::string::npos) end = paths.size();
        std::string line = paths.substr(start, end - start);
        if (!line.empty()) uploads.push_back(replace_all(line, "out/", dir_.string() + "/"));
      }
    }
    const ConfigNode* run = step.find("run");
    if (run == nullptr || step.find("if") != nullptr) continue;  // pull-request-only steps
    const std::string& line = run->scalar();
    if (line.rfind("build/cli/polyarch ", 0) != 0) continue;  // package and build steps
    std::string command = replace_all(line, "build/cli/polyarch", POLYARCH_CLI);
    command = replace_all(command, "out/", dir_.string() + "/");
    CommandOutput output = run_command("cd " + source_path("") + " && " + command);
    EXPECT_EQ(output.exit_code, 0) << command << "\n" << output.output;
    ++commands;
  }
  EXPECT_EQ(commands, 2);  // the sweep and the single run
  ASSERT_EQ(uploads.size(), 5u);
  for (const std::string& file : uploads) EXPECT_TRUE(fs::exists(file)) << file;
  // The pull-request gate diffs the base branch's sweep with this one; a sweep against itself
  // passes it, and the summary opens with the verdict.
  const std::string sweep = dir_.string() + "/sweep";
  const CommandOutput gate =
      run_command(std::string(POLYARCH_CLI) + " diff " + sweep + " " + sweep +
                  " --fail-on latency:+5%,energy:+5% --format markdown");
  EXPECT_EQ(gate.exit_code, 0) << gate.output;
  EXPECT_EQ(gate.output.rfind("## polyarch diff (sweeps)\n\n**result: no regression (", 0), 0u)
      << gate.output;
}

}  // namespace
