// End-to-end tests of `polyarch thermal`: files written, exit codes, messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using namespace polyarch::test_support;

class ThermalCliTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("chip.flp", "# two blocks\ncore\t0.004\t0.004\t0\t0\ncache\t0.004\t0.004\t0.004\t0\n");
    write("run.ptrace", "cache core\n1.0 10.0\n2.0 12.0\n1.5 0.0\n");
  }
  CommandOutput thermal(const std::string& extra) {
    return run_polyarch("thermal --floorplan " + path("chip.flp") + " --power " +
                        path("run.ptrace") + " --out " + path("out") + " " + extra);
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(ThermalCliTest, WritesSteadyAndTransientCsvInFloorplanOrder) {
  CommandOutput run = thermal("");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::string> steady = lines_of(read_file(dir_ / "out/steady.csv"));
  ASSERT_EQ(steady.size(), 3u);
  EXPECT_EQ(steady[0], "block,kelvin");
  EXPECT_EQ(steady[1].rfind("core,", 0), 0u);
  EXPECT_GT(std::stod(steady[1].substr(5)), 318.15);
  const std::vector<std::string> transient = lines_of(read_file(dir_ / "out/transient.csv"));
  ASSERT_EQ(transient.size(), 4u);  // header + one row per sample
  EXPECT_EQ(transient[0], "core,cache");
  EXPECT_NE(run.output.find("hottest block 'core'"), std::string::npos) << run.output;
}

TEST_F(ThermalCliTest, AmbientStartBeginsNearAmbientWithConfigFromYaml) {
  write("t.yaml", "thermal:\n  ambient_k: 300.0\n  sampling_interval_s: 1.0e-6\n");
  CommandOutput run = thermal("--init ambient --config " + path("t.yaml"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::string> transient = lines_of(read_file(dir_ / "out/transient.csv"));
  // One microsecond after switching on, nothing has warmed by more than a few kelvin.
  EXPECT_NEAR(std::stod(transient[1]), 300.0, 3.0) << transient[1];
}

TEST_F(ThermalCliTest, MatchesHotSpotOnAShippedCase) {
  const std::string data = source_path("tests/data/thermal/strip3/");
  CommandOutput run =
      run_polyarch("thermal --floorplan " + data + "floorplan.flp --power " + data +
                   "power.ptrace --config " + data + "thermal.yaml --out " + path("out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::istringstream hotspot(read_file(data + "hotspot.steady"));
  std::string name;
  double kelvin = 0.0;
  const std::string steady = read_file(dir_ / "out/steady.csv");
  for (int i = 0; i < 3 && hotspot >> name >> kelvin; ++i) {
    const std::size_t at = steady.find(name + ",");
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_NEAR(std::stod(steady.substr(at + name.size() + 1)), kelvin, 0.02) << name;
  }
}

TEST_F(ThermalCliTest, GridModelWritesTheSameCsvLayoutAtTheRequestedResolution) {
  CommandOutput run = thermal("--model grid --grid 16x24");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::string> steady = lines_of(read_file(dir_ / "out/steady.csv"));
  ASSERT_EQ(steady.size(), 3u);
  EXPECT_EQ(steady[0], "block,kelvin");
  EXPECT_EQ(steady[1].rfind("core,", 0), 0u);
  EXPECT_GT(std::stod(steady[1].substr(5)), 318.15);
  const std::vector<std::string> transient = lines_of(read_file(dir_ / "out/transient.csv"));
  ASSERT_EQ(transient.size(), 4u);
  EXPECT_EQ(transient[0], "core,cache");
  EXPECT_NE(run.output.find("hottest block 'core'"), std::string::npos) << run.output;
}

TEST_F(ThermalCliTest, GridModelMatchesHotSpotGridModeOnAShippedCase) {
  // tests/data/thermal/grid_strip3: HotSpot 7 with -model_type grid, 64 x 64 (the default).
  const std::string data = source_path("tests/data/thermal/grid_strip3/");
  CommandOutput run = run_polyarch("thermal --floorplan " + data + "floorplan.flp --power " + data +
                                   "power.ptrace --config " + data +
                                   "thermal.yaml --model grid --out " + path("out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::istringstream hotspot(read_file(data + "hotspot.steady"));
  std::string name;
  double kelvin = 0.0;
  const std::string steady = read_file(dir_ / "out/steady.csv");
  for (int i = 0; i < 3 && hotspot >> name >> kelvin; ++i) {
    const std::size_t at = steady.find(name + ",");
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_NEAR(std::stod(steady.substr(at + name.size() + 1)), kelvin, 0.02) << name;
  }
}

TEST_F(ThermalCliTest, ConfigModelKeysPickTheGridAndOptionsOverrideThem) {
  ASSERT_EQ(thermal("--model grid --grid 8x12").exit_code, 0);
  const std::string grid_8x12 = read_file(dir_ / "out/steady.csv");
  ASSERT_EQ(thermal("").exit_code, 0);
  const std::string block = read_file(dir_ / "out/steady.csv");
  ASSERT_NE(grid_8x12, block);
  write("t.yaml", "thermal:\n  model: grid\n  grid_rows: 8\n  grid_cols: 12\n");
  ASSERT_EQ(thermal("--config " + path("t.yaml")).exit_code, 0);
  EXPECT_EQ(read_file(dir_ / "out/steady.csv"), grid_8x12);
  ASSERT_EQ(thermal("--config " + path("t.yaml") + " --model block").exit_code, 0);
  EXPECT_EQ(read_file(dir_ / "out/steady.csv"), block);
  ASSERT_EQ(thermal("--config " + path("t.yaml") + " --grid 16x16").exit_code, 0);
  EXPECT_NE(read_file(dir_ / "out/steady.csv"), grid_8x12);
}

TEST_F(ThermalCliTest, BadGridOptionsAreBadInputAndWriteNothing) {
  for (const char* options : {"--model grid --grid 0x8", "--model grid --grid 64",
                              "--model grid --grid 8x-2", "--grid 8x8", "--model mesh"}) {
    CommandOutput run = thermal(options);
    EXPECT_EQ(run.exit_code, 2) << options << ": " << run.output;
  }
  CommandOutput run = thermal("--model grid --grid 512x512");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("at most"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(ThermalCliTest, OverlappingFloorplanIsBadInputWithLineAndNothingWritten) {
  write("chip.flp", "core 0.004 0.004 0 0\ncache 0.004 0.004 0.003 0\n");
  CommandOutput run = thermal("");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("chip.flp:2:1: block 'cache' overlaps block 'core' (line 1)"),
            std::string::npos)
      << run.output;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(ThermalCliTest, TraceErrorsNameFileAndLine) {
  write("run.ptrace", "cache core\n1.0 10.0\n2.0 1O.0\n");
  CommandOutput run = thermal("");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("run.ptrace:3:5: expected a number"), std::string::npos) << run.output;
  write("run.ptrace", "cache core gpu\n1 2 3\n");
  run = thermal("");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("run.ptrace:1:12: unknown block 'gpu'"), std::string::npos)
      << run.output;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(ThermalCliTest, BadOptionsAndConfigAreBadInput) {
  EXPECT_EQ(thermal("--init cold").exit_code, 2);
  write("t.yaml", "thermal:\n  sink: {side: 0.05}\n");
  CommandOutput run = thermal("--config " + path("t.yaml"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("t.yaml:2:"), std::string::npos) << run.output;
  EXPECT_EQ(
      run_polyarch("thermal --power " + path("run.ptrace") + " --out " + path("out")).exit_code, 2);
}

}  // namespace
