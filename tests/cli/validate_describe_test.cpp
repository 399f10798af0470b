// `polyarch validate --describe NAME`: the key table of an arch file's part as an aligned text
// table, through the real program; an unknown name is bad input (exit 2) listing the names.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "tests/support/run_polyarch.h"

namespace {

using polyarch::test_support::run_polyarch;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line whose first column is `key`, or "".
std::string row_of(const std::vector<std::string>& lines, const std::string& key) {
  for (const std::string& line : lines) {
    if (line.rfind(key + " ", 0) == 0) return line;
  }
  return "";
}

TEST(ValidateDescribeCli, SystolicTableListsEachKeyWithTypeUnitDefaultRangeAndDoc) {
  const auto result = run_polyarch("validate --describe systolic");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<std::string> lines = lines_of(result.output);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("systolic: ", 0), 0u) << lines[0];
  const std::string& header = lines[1];
  EXPECT_EQ(header.rfind("key ", 0), 0u) << header;
  // Every row's columns start where the header's do.
  const std::size_t type_column = header.find("type");
  const std::size_t doc_column = header.find("doc");
  const std::string rows = row_of(lines, "rows");
  ASSERT_FALSE(rows.empty()) << result.output;
  EXPECT_EQ(rows.substr(type_column, 4), "int ");
  EXPECT_NE(rows.find("PEs"), std::string::npos);
  EXPECT_NE(rows.find("(required)"), std::string::npos);
  EXPECT_NE(rows.find("1 .. 65536"), std::string::npos);
  EXPECT_EQ(rows.substr(doc_column), "PE rows of the array");
  const std::string ifmap = row_of(lines, "buffers.ifmap_kib");
  EXPECT_NE(ifmap.find("KiB"), std::string::npos) << ifmap;
  EXPECT_NE(ifmap.find(" 512 "), std::string::npos) << ifmap;
  EXPECT_NE(row_of(lines, "dataflow").find("os | ws | is"), std::string::npos);
  EXPECT_NE(row_of(lines, "clock_ghz").find("SoC clock"), std::string::npos);
}

TEST(ValidateDescribeCli, SocSectionAndKindTablesNameTheirNestedKeys) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"soc", "interconnect.latency_cycles"}, {"memory", "dram.bandwidth_gbps"},
      {"thermal", "convection.r_k_per_w"},    {"simd", "matrix_engine.sparse_mn"},
      {"dataflow", "pe.mac.dtypes"},          {"dataflow", "config.load_cycles"},
      {"crossbar", "analog.read_sigma"}};
  for (const auto& [name, key] : expected) {
    const auto result = run_polyarch("validate --describe " + name);
    ASSERT_EQ(result.exit_code, 0) << name << ": " << result.output;
    EXPECT_EQ(result.output.rfind(name + ": ", 0), 0u) << result.output;
    EXPECT_FALSE(row_of(lines_of(result.output), key).empty()) << name << ": " << result.output;
  }
  // HotSpot's example.config: a 6 cm sink, 0.1 K/W to ambient.
  const auto thermal = run_polyarch("validate --describe thermal");
  EXPECT_NE(row_of(lines_of(thermal.output), "sink.side_m").find(" 0.06 "), std::string::npos)
      << thermal.output;
}

// Keys that by design change no simulated figure say so: names, and what a model records only
// (a JEDEC device's width). The simple DRAM's channels are not: each draws background power.
TEST(ValidateDescribeCli, DescriptiveKeysAreMarkedAndOthersAreNot) {
  const auto memory = run_polyarch("validate --describe memory");
  ASSERT_EQ(memory.exit_code, 0) << memory.output;
  const std::vector<std::string> lines = lines_of(memory.output);
  EXPECT_EQ(row_of(lines, "dram.channels").find("[descriptive"), std::string::npos)
      << memory.output;
  EXPECT_EQ(row_of(lines, "dram.bandwidth_gbps").find("[descriptive"), std::string::npos)
      << memory.output;
  const auto dram = run_polyarch("validate --describe dram");
  EXPECT_NE(row_of(lines_of(dram.output), "organization.device_width").find("[descriptive: "),
            std::string::npos)
      << dram.output;
  const auto systolic = run_polyarch("validate --describe systolic");
  EXPECT_NE(row_of(lines_of(systolic.output), "name").find("[descriptive: "), std::string::npos)
      << systolic.output;
}

TEST(ValidateDescribeCli, CrossbarDeviceChoicesAndSimdDefaultsAreThoseOfTheModels) {
  const auto crossbar = run_polyarch("validate --describe crossbar");
  const std::string device = row_of(lines_of(crossbar.output), "cell.device");
  EXPECT_NE(device.find("rram | pcm | sram"), std::string::npos) << device;
  const auto simd = run_polyarch("validate --describe simd");
  const std::string l2 = row_of(lines_of(simd.output), "l2.hit_latency_cycles");
  EXPECT_NE(l2.find(" 200 "), std::string::npos) << l2;  // what a unit that gives none gets
}

TEST(ValidateDescribeCli, UnknownNameExitsTwoListingTheKinds) {
  const auto result = run_polyarch("validate --describe systolik");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("no key table 'systolik'; did you mean 'systolic'?"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("soc, memory, thermal, dvfs, systolic"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("mimd"), std::string::npos) << result.output;
}

}  // namespace
