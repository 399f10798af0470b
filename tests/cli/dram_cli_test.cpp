// End-to-end tests of `polyarch dram`: the printed and written figures, the configuration
// formats, bad traces.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using namespace polyarch::test_support;

class DramCliTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("ddr4.yaml",
          "dram:\n  standard: ddr4\n  preset: ddr4_3200\n"
          "  controller: {address_mapping: rochrababgco}\n");
    // Two reads to one row of a closed bank: ACT, RD at tRCD = 22, RD at 22 + tCCD_L = 30;
    // the second's data ends at 30 + CL 22 + 4 = 56.
    write("two.trace", "0x0 READ 0\n0x40 READ 0\n");
  }
  CommandOutput dram(const std::string& config, const std::string& trace,
                     const std::string& extra = "") {
    return run_polyarch("dram --config " + path(config) + " --trace " + path(trace) + " " + extra);
  }
};

TEST_F(DramCliTest, PrintsAndWritesTheFiguresAsJson) {
  CommandOutput run = dram("ddr4.yaml", "two.trace", "--json " + path("out/r.json"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json json = nlohmann::json::parse(read_file(dir_ / "out/r.json"));
  for (const char* key :
       {"requests", "reads", "writes", "cycles", "bandwidth_gbps", "peak_bandwidth_gbps",
        "mean_read_latency_cycles", "p50_read_latency_cycles", "p99_read_latency_cycles",
        "mean_read_latency_ns", "row_hits", "row_misses", "row_conflicts", "refreshes"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_EQ(json.size(), 14u);
  EXPECT_EQ(json["requests"], 2);
  EXPECT_EQ(json["cycles"], 56);
  // Latencies from entry (cycles 0 and 1): 48 and 55.
  EXPECT_DOUBLE_EQ(json["mean_read_latency_cycles"].get<double>(), (48 + 55) / 2.0);
  EXPECT_EQ(json["row_hits"], 1);
  EXPECT_EQ(json["row_misses"], 1);
  EXPECT_DOUBLE_EQ(json["peak_bandwidth_gbps"].get<double>(), 25.6);
  EXPECT_NE(run.output.find("in 56 cycles"), std::string::npos) << run.output;
}

TEST_F(DramCliTest, ReadsAnArchFilesMemoryDramAndADramSim3Ini) {
  write("arch.yaml",
        "name: a\nmemory:\n  dram: {model: jedec, preset: ddr4_3200,\n"
        "         controller: {address_mapping: rochrababgco}}\nunits: []\n");
  CommandOutput from_arch = dram("arch.yaml", "two.trace");
  ASSERT_EQ(from_arch.exit_code, 0) << from_arch.output;
  EXPECT_NE(from_arch.output.find("in 56 cycles"), std::string::npos) << from_arch.output;

  write("d.ini",
        "[dram_structure]\nprotocol = DDR4\nbankgroups = 4\nbanks_per_group = 4\n"
        "rows = 65536\ncolumns = 1024\ndevice_width = 8\nBL = 8\n"
        "[timing]\ntCK = 0.625\nCL = 22\nCWL = 16\ntRCD = 22\ntRP = 22\ntRAS = 52\n"
        "tRFC = 560\ntREFI = 12480\ntRRD_S = 4\ntRRD_L = 8\ntWTR_S = 4\ntWTR_L = 12\n"
        "tFAW = 34\ntWR = 24\ntRTP = 12\ntCCD_S = 4\ntCCD_L = 8\ntCKE = 8\n"
        "[power]\nIDD0 = 57\n"
        "[system]\nchannel_size = 8192\nbus_width = 64\naddress_mapping = rochrababgco\n");
  CommandOutput from_ini = dram("d.ini", "two.trace");
  ASSERT_EQ(from_ini.exit_code, 0) << from_ini.output;
  // DRAMsim3's queues: a request spends its first cycle in the transaction queue, so the ACT
  // issues at cycle 1 and everything is one cycle later.
  EXPECT_NE(from_ini.output.find("in 57 cycles"), std::string::npos) << from_ini.output;
  // One note, naming the keys left out.
  const size_t note = from_ini.output.find("note:");
  ASSERT_NE(note, std::string::npos) << from_ini.output;
  EXPECT_EQ(from_ini.output.find("note:", note + 1), std::string::npos) << from_ini.output;
  EXPECT_NE(from_ini.output.find("timing.tCKE, power.IDD0"), std::string::npos) << from_ini.output;
}

TEST_F(DramCliTest, BadTraceExitsTwoNamingTheLineAndWritesNothing) {
  write("bad.trace", "0x0 READ 0\n0x40 READ 5\n0x80 READ 4\n");
  CommandOutput run = dram("ddr4.yaml", "bad.trace", "--json " + path("r.json"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("bad.trace:3"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir_ / "r.json"));

  write("far.trace", "0x0 READ 0\n0xfffffffff READ 1\n");
  CommandOutput far = dram("ddr4.yaml", "far.trace", "--json " + path("r.json"));
  EXPECT_EQ(far.exit_code, 2) << far.output;
  EXPECT_NE(far.output.find("far.trace:2"), std::string::npos) << far.output;
  EXPECT_FALSE(fs::exists(dir_ / "r.json"));
}

TEST_F(DramCliTest, MisspeltConfigKeyIsBadInputWithASuggestion) {
  write("typo.yaml", "dram:\n  preset: ddr4_3200\n  timing: {tFAWW: 30}\n");
  CommandOutput run = dram("typo.yaml", "two.trace");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("tFAW"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("typo.yaml:3"), std::string::npos) << run.output;
}

}  // namespace
