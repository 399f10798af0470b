// `from: X.ini` in a dram map (an arch file's memory.dram): DRAMsim3's file is the starting
// point, the map's keys override it, and what polyarch reads but does not model is one note.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/config_tree.h"
#include "sim/memory/dram/dram_yaml.h"
#include "sim/memory/jedec_dram_spec.h"
#include "tests/support/bad_input.h"

namespace polyarch::sim::dram {
namespace {

namespace fs = std::filesystem;

const fs::path kIni = fs::path(POLYARCH_SOURCE_DIR) / "tests/data/dram/ddr4_3200_one_rank.ini";

// A file `name` holding `text` in a fresh folder of the test's own.
fs::path write_file(const std::string& folder, const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("polyarch_dram_from_" + folder);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

DramDescription parse(const std::string& yaml) {
  const ConfigNode root = parse_config_text(yaml, "arch.yaml");
  return read_dram_map(*root.find("dram"));
}

std::string error_of(const std::string& yaml) {
  return test_support::bad_input_message([&] { parse(yaml); }, yaml);
}

TEST(DramYamlFrom, TheIniIsTheStartingPointAndMapKeysOverrideIt) {
  const DramDescription d = parse("dram:\n  from: " + kIni.string() +
                                  "\n  timing: {CL: 24}\n"
                                  "  controller: {page_policy: closed, scheduler: fr_fcfs}\n");
  // From the file: DDR4-3200AA at tCK 0.63 ns, 4 x 4 banks, its address mapping.
  EXPECT_EQ(d.standard, "ddr4");
  EXPECT_EQ(d.config.organization.clock_mhz, 1587);
  EXPECT_EQ(d.config.organization.bank_groups, 4);
  EXPECT_EQ(d.config.timing.tRCD, 22);
  EXPECT_EQ(d.config.controller.address_scheme, AddressScheme::kFieldOrder);
  EXPECT_EQ(d.config.controller.field_order, "rochrababgco");
  EXPECT_EQ(d.config.controller.command_queue_depth, 8);
  // Overridden here.
  EXPECT_EQ(d.config.timing.tCL, 24);
  EXPECT_EQ(d.config.controller.page_policy, PagePolicy::kClosed);
  EXPECT_FALSE(d.config.controller.bank_round_robin);
  const std::vector<std::string> unmodelled = {"timing.tCKE", "timing.tXP", "power.VDD",
                                               "power.IDD0", "other.epoch_period"};
  EXPECT_EQ(d.unmodelled_keys, unmodelled);
}

TEST(DramYamlFrom, ARelativePathIsResolvedAgainstTheFileThatNamesIt) {
  std::ifstream in(kIni);
  const std::string ini((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const fs::path ini_path = write_file("relative", "ddr4.ini", ini);
  std::ofstream(ini_path.parent_path() / "arch_dram.yaml") << "dram: {from: ddr4.ini}\n";
  const ConfigNode root = load_config_file(ini_path.parent_path() / "arch_dram.yaml");
  EXPECT_EQ(read_dram_map(*root.find("dram")).config.timing.tRFC, 560);
}

TEST(DramYamlFrom, AnArchFileReportsTheUnmodelledKeysInOneNote) {
  const ConfigNode root = parse_config_text("dram: {from: " + kIni.string() + "}\n", "arch.yaml");
  const DramSpec spec = read_jedec_dram_spec(*root.find("dram"));
  EXPECT_EQ(spec.model, "jedec");
  ASSERT_EQ(spec.notes.size(), 1u);
  EXPECT_NE(spec.notes[0].find("timing.tCKE, timing.tXP, power.VDD, power.IDD0"), std::string::npos)
      << spec.notes[0];
}

TEST(DramYamlFrom, ContradictionsAndMissingFilesAreBadInputNamingTheKey) {
  std::string message = error_of("dram:\n  from: " + kIni.string() + "\n  preset: ddr4_3200\n");
  EXPECT_NE(message.find("arch.yaml:3"), std::string::npos) << message;
  EXPECT_NE(message.find("preset and from"), std::string::npos) << message;
  message = error_of("dram:\n  from: " + kIni.string() + "\n  standard: hbm2\n");
  EXPECT_NE(message.find("arch.yaml:3"), std::string::npos) << message;
  EXPECT_NE(message.find("contradicts from"), std::string::npos) << message;
  message = error_of("dram:\n  from: missing.ini\n");
  EXPECT_NE(message.find("arch.yaml:2"), std::string::npos) << message;
  EXPECT_NE(message.find("missing.ini"), std::string::npos) << message;
  // The file's open page comes with DRAMsim3's bank round-robin, which needs an open page.
  message = error_of("dram:\n  from: " + kIni.string() + "\n  controller: {page_policy: closed}\n");
  EXPECT_NE(message.find("scheduler"), std::string::npos) << message;
  message = error_of("dram:\n  from: ddr4.yaml\n");
  EXPECT_NE(message.find("not a DRAMsim3 configuration"), std::string::npos) << message;
}

TEST(DramYamlFrom, ABadValueInTheIniNamesTheIniFileSectionAndKey) {
  std::ifstream in(kIni);
  std::string ini((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ini.replace(ini.find("tRP = 22"), 8, "tRP = x2");
  const fs::path path = write_file("bad_value", "bad.ini", ini);
  const std::string message = error_of("dram: {from: " + path.string() + "}\n");
  EXPECT_NE(message.find("bad.ini:"), std::string::npos) << message;
  EXPECT_NE(message.find("tRP"), std::string::npos) << message;
  EXPECT_NE(message.find("[timing]"), std::string::npos) << message;
}

}  // namespace
}  // namespace polyarch::sim::dram
