#include "sim/thermal/floorplan.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/sim/thermal/thermal_test_support.h"

namespace polyarch::sim::thermal {
namespace {

std::string parse_error(const std::string& text) {
  return test::bad_input_message([&] { parse_floorplan(text, "chip.flp"); });
}

TEST(ThermalFloorplan, ReadsHotSpotFormatWithCommentsBlankLinesTabsAndSpaces) {
  const Floorplan floorplan = parse_floorplan(
      "# a comment\n"
      "\n"
      "core\t0.002\t0.001\t0.0\t0.0\n"
      "  cache   0.002 0.001 0.002 0.0   \r\n"
      "io 0.004 0.0005 0 0.001 1.75e6 0.01\n"  // HotSpot's optional material columns
      "core cache 1.0\n",                      // HotFloorplan's wire density: skipped
      "chip.flp");
  ASSERT_EQ(floorplan.block_count(), 3);
  EXPECT_EQ(floorplan.blocks[1].name, "cache");
  EXPECT_DOUBLE_EQ(floorplan.blocks[1].left_m, 0.002);
  EXPECT_EQ(floorplan.blocks[1].line, 4);
  EXPECT_EQ(floorplan.index_of("io"), 2);
  EXPECT_EQ(floorplan.index_of("gpu"), -1);
  EXPECT_DOUBLE_EQ(floorplan.width_m(), 0.004);
  EXPECT_DOUBLE_EQ(floorplan.height_m(), 0.0015);
  EXPECT_NEAR(floorplan.gap_area_m2(), 0.0, 1e-15);
}

TEST(ThermalFloorplan, GapsAreAllowedAndMeasured) {
  const Floorplan floorplan =
      parse_floorplan("a 0.001 0.001 0 0\nb 0.001 0.001 0.002 0\n", "chip.flp");
  EXPECT_NEAR(floorplan.gap_area_m2(), 1e-6, 1e-15);
}

TEST(ThermalFloorplan, OverlapNamesBothBlocksAndTheLine) {
  const std::string message = parse_error(
      "a 0.002 0.002 0 0\n"
      "# b overlaps a by 1 x 1 mm\n"
      "b 0.002 0.002 0.001 0.001\n");
  EXPECT_NE(message.find("chip.flp:3:"), std::string::npos) << message;
  EXPECT_NE(message.find("'b' overlaps block 'a' (line 1)"), std::string::npos) << message;
}

TEST(ThermalFloorplan, TouchingWithinRoundingIsNotAnOverlap) {
  // HotSpot's own files round to micrometres: 3 x 1.033 mm does not quite end at 3.1 mm.
  EXPECT_NO_THROW(parse_floorplan("a 0.0031 0.001 0 0\nb 0.001 0.001 0.0030995 0\n", "c.flp"));
}

TEST(ThermalFloorplan, MalformedLinesNameFileLineAndColumn) {
  EXPECT_NE(parse_error("a 0.001 0.001 0\n").find("chip.flp:1:1: expected `name width"),
            std::string::npos);
  EXPECT_NE(parse_error("a 0.001 0.001 0 0\nb 0.001 1mm 0.001 0\n").find("chip.flp:2:9:"),
            std::string::npos);
  EXPECT_NE(parse_error("a 0.001 0 0 0\n").find("positive width and height"), std::string::npos);
  EXPECT_NE(parse_error("a 0.001 0.001 0 0\na 0.001 0.001 0.001 0\n")
                .find("chip.flp:2:1: duplicate block name 'a' (first on line 1)"),
            std::string::npos);
  EXPECT_NE(parse_error("# nothing\n").find("no blocks"), std::string::npos);
}

TEST(ThermalFloorplan, SharedEdgeSideBySideStackedAndCorner) {
  const Floorplan floorplan = parse_floorplan(
      "a 0.002 0.002 0 0\n"
      "b 0.001 0.003 0.002 0.001\n"   // right of a, sharing 1 mm of a's right edge
      "c 0.002 0.001 0 0.002\n"       // on top of a, sharing 2 mm
      "d 0.001 0.001 0.003 0.004\n",  // touches b's top-right corner only
      "chip.flp");
  const auto& blocks = floorplan.blocks;
  SharedEdge ab = shared_edge(blocks[0], blocks[1]);
  EXPECT_NEAR(ab.length_m, 0.001, 1e-12);
  EXPECT_TRUE(ab.horizontal);
  SharedEdge ac = shared_edge(blocks[0], blocks[2]);
  EXPECT_NEAR(ac.length_m, 0.002, 1e-12);
  EXPECT_FALSE(ac.horizontal);
  EXPECT_EQ(shared_edge(blocks[1], blocks[3]).length_m, 0.0);
  EXPECT_EQ(shared_edge(blocks[0], blocks[3]).length_m, 0.0);
}

}  // namespace
}  // namespace polyarch::sim::thermal
