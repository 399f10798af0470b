#include "reports/csv_writer.h"

#include <gtest/gtest.h>

#include <charconv>
#include <limits>

namespace polyarch::reports {
namespace {

TEST(CsvWriter, QuotedFieldsParseBackToTheSameText) {
  const std::vector<std::string> texts = {"plain", "a,b", "say \"hi\"", "two\nlines", "", "\r"};
  std::string csv;
  for (const std::string& text : texts) csv += csv_row({csv_field(text), "x"});
  auto records = parse_csv(csv);
  ASSERT_EQ(records.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(records[i], (std::vector<std::string>{texts[i], "x"})) << i;
  }
}

TEST(CsvWriter, NumbersRoundTripExactly) {
  for (double value : {0.1, 1.0 / 3.0, 6.02214076e23, 1e-300, 1e-9, 123456789.0,
                       std::numeric_limits<double>::max()}) {
    std::string text = csv_number(value);
    double back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    EXPECT_EQ(back, value) << text;
    EXPECT_EQ(std::stod(text), value) << text;  // what strtod-based readers (pandas) do
  }
  EXPECT_EQ(csv_number(int64_t{9007199254740993}), "9007199254740993");
  EXPECT_EQ(csv_number(std::optional<double>()), "");
  EXPECT_EQ(csv_number(std::numeric_limits<double>::quiet_NaN()), "");
  EXPECT_EQ(csv_number(0.5), "0.5");  // a double never takes the integer overload
}

TEST(CsvWriter, ParsesCrlfAndAFinalLineWithoutNewline) {
  auto records = parse_csv("a,b\r\n1,\"2\"\"\"\n3,4");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1], (std::vector<std::string>{"1", "2\""}));
  EXPECT_EQ(records[2], (std::vector<std::string>{"3", "4"}));
  EXPECT_THROW(parse_csv("\"open"), std::runtime_error);
}

}  // namespace
}  // namespace polyarch::reports
