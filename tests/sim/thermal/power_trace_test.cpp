#include "sim/thermal/power_trace.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/sim/thermal/thermal_test_support.h"

namespace polyarch::sim::thermal {
namespace {

Floorplan two_blocks() {
  return parse_floorplan("core 0.001 0.001 0 0\ncache 0.001 0.001 0.001 0\n", "chip.flp");
}

std::string parse_error(const std::string& text) {
  return test::bad_input_message([&] { parse_power_trace(text, "run.ptrace", two_blocks()); });
}

TEST(ThermalPowerTrace, ColumnsInAnyOrderAreStoredInFloorplanOrder) {
  const PowerTrace trace =
      parse_power_trace("cache\tcore\n1.0\t3.0\n\n2.0 5.0\n", "run.ptrace", two_blocks());
  ASSERT_EQ(trace.sample_count(), 2);
  EXPECT_DOUBLE_EQ(trace.sample(0)[0], 3.0);  // core
  EXPECT_DOUBLE_EQ(trace.sample(0)[1], 1.0);  // cache
  EXPECT_DOUBLE_EQ(trace.sample(1)[0], 5.0);
  const std::vector<double> average = trace.average_w();
  EXPECT_DOUBLE_EQ(average[0], 4.0);
  EXPECT_DOUBLE_EQ(average[1], 1.5);
}

TEST(ThermalPowerTrace, NamesMatchIgnoringCaseAsInHotSpot) {
  const PowerTrace trace = parse_power_trace("CACHE Core\n1 2\n", "run.ptrace", two_blocks());
  EXPECT_DOUBLE_EQ(trace.sample(0)[0], 2.0);
}

TEST(ThermalPowerTrace, UnknownBlockNamesTheLineAndSuggests) {
  const std::string message = parse_error("core cahce\n1 2\n");
  EXPECT_NE(message.find("run.ptrace:1:6: unknown block 'cahce'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'cache'"), std::string::npos) << message;
}

TEST(ThermalPowerTrace, MissingOrRepeatedHeaderBlocksAreErrors) {
  EXPECT_NE(parse_error("core\n1\n").find("lacks block 'cache'"), std::string::npos);
  EXPECT_NE(parse_error("core cache core\n1 2 3\n").find("appears twice"), std::string::npos);
}

TEST(ThermalPowerTrace, WrongCountAndBadNumbersNameFileAndLine) {
  EXPECT_NE(parse_error("core cache\n1 2\n1 2 3\n").find("run.ptrace:3:1: expected 2 power"),
            std::string::npos);
  const std::string message = parse_error("core cache\n1 2\n1 x2\n");
  EXPECT_NE(message.find("run.ptrace:3:3: expected a number for the power of 'cache', got 'x2'"),
            std::string::npos)
      << message;
  EXPECT_NE(parse_error("core cache\n1 nan\n").find("run.ptrace:2:3"), std::string::npos);
}

TEST(ThermalPowerTrace, EmptyTraceAndHeaderOnlyAreErrors) {
  EXPECT_NE(parse_error("").find("empty"), std::string::npos);
  EXPECT_NE(parse_error("core cache\n").find("no samples"), std::string::npos);
}

}  // namespace
}  // namespace polyarch::sim::thermal
