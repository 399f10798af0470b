#include "sim/thermal/text_fields.h"

#include <gtest/gtest.h>

#include "tests/sim/thermal/thermal_test_support.h"

namespace polyarch::sim::thermal {
namespace {

TEST(ThermalTextFields, SplitsOnTabsAndSpacesSkippingCommentsAndBlankLines) {
  const std::vector<FieldLine> lines = split_field_lines("# header\n\n a\t b  c\r\n\t\nd");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].line, 3);
  ASSERT_EQ(lines[0].fields.size(), 3u);
  EXPECT_EQ(lines[0].fields[1].text, "b");
  EXPECT_EQ(lines[0].fields[1].column, 5);
  EXPECT_EQ(lines[1].line, 5);
  EXPECT_EQ(lines[1].fields[0].text, "d");
}

TEST(ThermalTextFields, NumbersMustBeWholeAndFinite) {
  EXPECT_TRUE(is_number("1.5e-3"));
  EXPECT_FALSE(is_number("1.5mm"));
  EXPECT_FALSE(is_number("inf"));
  EXPECT_FALSE(is_number("1e999"));
  EXPECT_FALSE(is_number(""));
  const std::string message = test::bad_input_message([] {
    parse_number({"x", 7}, "f.ptrace", 3, "the power");
  });
  EXPECT_EQ(message, "f.ptrace:3:7: expected a number for the power, got 'x'");
}

}  // namespace
}  // namespace polyarch::sim::thermal
