#include "archs/soc/soc_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "archs/systolic/kind.h"

namespace polyarch::archs {
namespace {

constexpr const char* kValidArch = R"(name: t
clock_ghz: 1.0
memory:
  dram: {kind: hbm2, bandwidth_gbps: 600, latency_ns: 120}
units:
  - name: mxu
    kind: systolic
    rows: 16
    cols: 8
    dataflow: os
)";

SocConfig parse(const std::string& text) {
  return parse_soc_config(parse_config_text(text, "arch.yaml"));
}

// Parses `text` and returns the error message (fails the test when it parses).
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return error.what();
  }
  ADD_FAILURE() << "expected an error for:\n" << text;
  return "";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SocConfig, ParsesSystolicUnitWithDefaults) {
  SocConfig soc = parse(kValidArch);
  EXPECT_EQ(soc.name, "t");
  EXPECT_DOUBLE_EQ(soc.dram.bandwidth_gbps, 600);
  ASSERT_EQ(soc.units.size(), 1u);
  const auto& unit = dynamic_cast<const systolic::SystolicUnitConfig&>(*soc.units[0]);
  EXPECT_EQ(unit.params().rows, 16);
  EXPECT_EQ(unit.params().cols, 8);
  EXPECT_EQ(unit.params().dataflow, systolic::Dataflow::kOutputStationary);
  EXPECT_EQ(unit.params().dtype, ir::DType::kInt8);
  EXPECT_TRUE(unit.params().buffers.double_buffered);
  EXPECT_FALSE(unit.params().clock_ghz.has_value());
}

TEST(SocConfig, MisspelledKeySuggestsNearestAndNamesLine) {
  std::string message = error_of(replace(kValidArch, "rows: 16", "rwos: 16"));
  EXPECT_NE(message.find("arch.yaml:8"), std::string::npos) << message;
  EXPECT_NE(message.find("rows"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean"), std::string::npos) << message;
}

TEST(SocConfig, RejectsWrongTypeWithKeyPath) {
  std::string message = error_of(replace(kValidArch, "rows: 16", "rows: many"));
  EXPECT_NE(message.find("units[0].rows"), std::string::npos) << message;
  EXPECT_NE(message.find("arch.yaml:8:11"), std::string::npos) << message;
}

TEST(SocConfig, RejectsZeroAndNegativeSizes) {
  EXPECT_NE(error_of(replace(kValidArch, "rows: 16", "rows: 0")).find("units[0].rows"),
            std::string::npos);
  EXPECT_NE(error_of(replace(kValidArch, "cols: 8", "cols: -4")).find("units[0].cols"),
            std::string::npos);
  std::string buffers = replace(kValidArch, "dataflow: os", "dataflow: os\n    buffers: {ifmap_kib: 0}");
  EXPECT_NE(error_of(buffers).find("ifmap_kib"), std::string::npos);
  EXPECT_NE(error_of(replace(kValidArch, "clock_ghz: 1.0", "clock_ghz: 0")).find("clock_ghz"),
            std::string::npos);
}

TEST(SocConfig, RejectsUnknownDataflowListingTheValidOnes) {
  std::string message = error_of(replace(kValidArch, "dataflow: os", "dataflow: rs"));
  EXPECT_NE(message.find("units[0].dataflow"), std::string::npos) << message;
  EXPECT_NE(message.find("ws"), std::string::npos) << message;
}

TEST(SocConfig, RejectsUnknownUnitKindAndDuplicateNames) {
  EXPECT_NE(error_of(replace(kValidArch, "kind: systolic", "kind: systolik")).find("systolic"),
            std::string::npos);
  std::string twice = std::string(kValidArch) +
                      "  - {name: mxu, kind: systolic, rows: 2, cols: 2, dataflow: ws}\n";
  EXPECT_NE(error_of(twice).find("duplicate unit name"), std::string::npos);
}

TEST(SocConfig, RequiresMemoryAndUnits) {
  EXPECT_NE(error_of("name: t\nclock_ghz: 1\nunits: []\nmemory: {dram: {bandwidth_gbps: 1}}\n")
                .find("at least one unit"),
            std::string::npos);
  EXPECT_NE(error_of("name: t\nclock_ghz: 1\nunits: []\n").find("memory"), std::string::npos);
}

TEST(SocConfig, RejectsMalformedTechnology) {
  std::string message = error_of(replace(kValidArch, "clock_ghz: 1.0", "clock_ghz: 1.0\ntechnology: fast"));
  EXPECT_NE(message.find("technology"), std::string::npos) << message;
}

TEST(SocConfig, BoardRegulatorEfficiencyIsReadAndAnImpossibleOneRefusedAtItsLine) {
  const SocConfig soc =
      parse(replace(kValidArch, "clock_ghz: 1.0", "clock_ghz: 1.0\nboard: {regulator_efficiency: 0.9}"));
  ASSERT_TRUE(soc.board_regulator_efficiency);
  EXPECT_DOUBLE_EQ(*soc.board_regulator_efficiency, 0.9);
  EXPECT_FALSE(parse(kValidArch).board_regulator_efficiency);
  // A regulator cannot deliver more than it draws.
  const std::string message = error_of(
      replace(kValidArch, "clock_ghz: 1.0", "clock_ghz: 1.0\nboard: {regulator_efficiency: 1.2}"));
  EXPECT_NE(message.find("arch.yaml:3"), std::string::npos) << message;
  EXPECT_NE(message.find("regulator_efficiency"), std::string::npos) << message;
  // An unknown key under board is named with its path.
  const std::string unknown = error_of(
      replace(kValidArch, "clock_ghz: 1.0",
              "clock_ghz: 1.0\nboard: {regulator_efficiency: 0.9, efficency: 1}"));
  EXPECT_NE(unknown.find("efficency"), std::string::npos) << unknown;
}


TEST(SocConfig, LowStandbyPowerDevicesLeakAThousandthOfTheTablesDensity) {
  // 28 nm: 15.5 mW/mm^2 (a register cell's leakage over its area); PTM's LP cards are built to
  // 100 pA/um of off current against HP's 100 nA/um, so an LSTP die leaks 0.0155 mW/mm^2.
  EXPECT_EQ(parse(kValidArch).devices, "hp");
  EXPECT_DOUBLE_EQ(parse(kValidArch).tech.table.leakage_w(10.0), 0.155);
  const SocConfig lstp = parse(replace(kValidArch, "clock_ghz: 1.0", "clock_ghz: 1.0\ndevices: lstp"));
  EXPECT_EQ(lstp.devices, "lstp");
  EXPECT_NEAR(lstp.tech.table.leakage_w(10.0), 1.55e-4, 1e-15);
  // The flavour scales an overridden density too: the override is the HP figure of the design.
  const SocConfig overridden = parse(replace(
      kValidArch, "clock_ghz: 1.0", "clock_ghz: 1.0\ndevices: lstp\nenergy: {leakage_mw_per_mm2: 20}"));
  EXPECT_NEAR(overridden.tech.table.leakage_w(10.0), 2.0e-4, 1e-15);
  const std::string message =
      error_of(replace(kValidArch, "clock_ghz: 1.0", "clock_ghz: 1.0\ndevices: lvt"));
  EXPECT_NE(message.find("arch.yaml:3"), std::string::npos) << message;
  EXPECT_NE(message.find("devices"), std::string::npos) << message;
  EXPECT_NE(message.find("lstp"), std::string::npos) << message;
}
TEST(SocConfig, BaseIncludeOverridesOneUnitKeyByName) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "polyarch_soc_base_test";
  fs::create_directories(dir);
  std::ofstream(dir / "base.yaml") << kValidArch;
  std::ofstream(dir / "derived.yaml")
      << "base: base.yaml\nname: derived\nunits:\n  - name: mxu\n    dataflow: ws\n";
  SocConfig soc = load_soc_config(dir / "derived.yaml");
  EXPECT_EQ(soc.name, "derived");
  const auto& unit = dynamic_cast<const systolic::SystolicUnitConfig&>(*soc.units[0]);
  EXPECT_EQ(unit.params().dataflow, systolic::Dataflow::kWeightStationary);
  EXPECT_EQ(unit.params().rows, 16);
  fs::remove_all(dir);
}

TEST(SocConfig, ShippedArchFilesAreValid) {
  for (const char* name : {"tpu_v1_like", "eyeriss_like", "edge_os_32x32",
                           "edge_os_32x32_ws_variant"}) {
    std::filesystem::path path =
        std::filesystem::path(POLYARCH_SOURCE_DIR) / "configs/arch" / (std::string(name) + ".yaml");
    SocConfig soc = load_soc_config(path);
    EXPECT_FALSE(soc.units.empty()) << name;
  }
}

// A key that acts only beside another is refused, at a value other than its default, where the
// other leaves it nothing to change; its default written out (as a report's `arch` echoes every
// key) still parses.
TEST(SocConfig, KeysThatWouldChangeNothingAreRefusedNamingWhy) {
  const std::string pim_unit =
      "  - {name: pim, kind: pim, memory: hbm2e_3200, lanes: 16, preemption: row}\n";
  const std::string mimd_unit =
      "  - {name: cpu, kind: mimd, count: 4, core: {vector_lanes: 16, local_kib: 64, "
      "line_bytes: 128}, noc: {topology: ring, link_bytes_per_cycle: 32}}\n";
  const std::string jedec_head =
      "name: t\nclock_ghz: 1.0\nunits:\n  - {name: mxu, kind: systolic, rows: 16, cols: 8, "
      "dataflow: os}\nmemory:\n  dram: {preset: ddr4_3200, ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {std::string(kValidArch) + "power_cap_w: 30\n", "an SoC of one unit"},
      {std::string(kValidArch) + "interconnect: {transfers: copy}\n", "an SoC of one unit"},
      {std::string(kValidArch) + "thermal: {sampling_interval_s: 0.001}\n", "power window"},
      {std::string(kValidArch) + "thermal: {grid_rows: 32}\n", "model: block"},
      {std::string(kValidArch) + pim_unit, "no host traffic reaches"},
      {std::string(kValidArch) +
           "  - {name: pim, kind: pim, memory: hbm2e_3200, lanes: 16, core: {tasklets: 8}}\n",
       "core.tasklets times a programmable core, which pu: simd"},
      {std::string(kValidArch) + mimd_unit, "outstanding_lines: 0"},
      {jedec_head + "timing: {t32AW: 40}}\n", "ddr4 has none"},
      {jedec_head + "timing: {tREFIb: 400}}\n", "per_bank"}};
  for (const auto& [text, expected] : cases) {
    const std::string message = error_of(text);
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_NE(message.find("arch.yaml:"), std::string::npos) << message;
  }
  const std::string defaults_written =
      std::string(kValidArch) +
      "  - {name: pim, kind: pim, memory: hbm2e_3200, lanes: 16, preemption: op, "
      "core: {tasklets: 16}}\n"
      "  - {name: cpu, kind: mimd, count: 4, core: {vector_lanes: 16, local_kib: 64, "
      "line_bytes: 64}, noc: {topology: ring, link_bytes_per_cycle: 32}}\n"
      "thermal: {sampling_interval_s: 0.00333, grid_rows: 64}\n"
      "power_cap_w: 300\n";
  EXPECT_NO_THROW(parse(defaults_written));
}

}  // namespace
}  // namespace polyarch::archs
