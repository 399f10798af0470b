// MapReader: typed access, ranges, enums, unknown keys and spelling suggestions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/config_tree.h"
#include "tests/base/error_capture.h"

namespace polyarch {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::error_text;
using ::testing::HasSubstr;

ConfigNode unit_map() {
  return parse_config_text("unit:\n  rows: 128\n  rwos: 4\n  clock: 0.9\n  flag: yes\n", "a.yaml");
}

TEST(MapReader, UnknownKeySuggestsNearestSpelling) {
  const ConfigNode root = unit_map();
  MapReader reader(*root.find("unit"));
  reader.required_int("rows", 1, 4096);
  reader.optional_double("clock", 1.0, 0.0, 10.0);
  reader.optional_bool("flag", false);
  auto error = capture_error([&] { reader.finish(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "unknown key 'rwos'; did you mean 'rows'?");
  EXPECT_EQ(error->where().to_string(), "a.yaml:3:9: unit.rwos");
}

TEST(MapReader, UnknownKeyFarFromAnyKnownKeyListsValidKeys) {
  const ConfigNode root = parse_config_text("rows: 1\nbanana: 2\n", "f");
  MapReader reader(root);
  reader.required_int("rows", 1, 10);
  EXPECT_THAT(error_text([&] { reader.finish(); }),
              HasSubstr("unknown key 'banana' (valid keys: rows)"));
}

TEST(MapReader, IgnoredKeysAreNotUnknown) {
  const ConfigNode root = parse_config_text("kind: x\n", "f");
  MapReader reader(root);
  reader.ignore("kind");
  EXPECT_NO_THROW(reader.finish());
}

TEST(MapReader, WrongTypeNamesWhatWasFound) {
  const ConfigNode root = parse_config_text("rows: abc\ncols: [1]\nratio: x\n", "t.yaml");
  MapReader reader(root);
  auto error = capture_error([&] { reader.required_int("rows", 1, 10); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "expected an integer, got 'abc'");
  EXPECT_EQ(error->where().to_string(), "t.yaml:1:7: rows");
  EXPECT_THAT(error_text([&] { reader.required_int("cols", 1, 10); }),
              HasSubstr("expected an integer, got a list"));
  EXPECT_THAT(error_text([&] { reader.required_double("ratio", 0, 1); }),
              HasSubstr("expected a number, got 'x'"));
  EXPECT_THAT(error_text([&] { reader.required_string("cols"); }),
              HasSubstr("expected a string, got a list"));
}

TEST(MapReader, FractionIsNotAnInteger) {
  const ConfigNode root = parse_config_text("rows: 1.5\n", "f");
  MapReader reader(root);
  EXPECT_THAT(error_text([&] { reader.required_int("rows", 1, 10); }),
              HasSubstr("expected an integer, got '1.5'"));
}

TEST(MapReader, OutOfRangeValuesNameTheRange) {
  const ConfigNode root = parse_config_text("rows: 0\nclock: 12.5\n", "f");
  MapReader reader(root);
  EXPECT_THAT(error_text([&] { reader.required_int("rows", 1, 4096); }),
              HasSubstr("value 0 is out of range [1, 4096]"));
  EXPECT_THAT(error_text([&] { reader.required_double("clock", 0.1, 10); }),
              HasSubstr("value 12.5 is out of range [0.1, 10]"));
}

TEST(MapReader, IntegerOverflowIsNotSilentlyWrapped) {
  const ConfigNode root = parse_config_text("rows: 99999999999999999999\n", "f");
  MapReader reader(root);
  EXPECT_THAT(error_text([&] { reader.required_int("rows", 1, INT64_MAX); }),
              HasSubstr("expected an integer"));
}

TEST(MapReader, MissingRequiredKeyNamesKeyAndMap) {
  const ConfigNode root = parse_config_text("unit:\n  cols: 1\n", "m.yaml");
  MapReader reader(*root.find("unit"));
  auto error = capture_error([&] { reader.required_int("rows", 1, 10); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "missing required key 'rows'");
  EXPECT_EQ(error->where().key_path, "unit");
  EXPECT_EQ(error->where().line, 2);
}

TEST(MapReader, OptionalValuesFallBackWhenAbsent) {
  const ConfigNode root = parse_config_text("a: 1\n", "f");
  MapReader reader(root);
  EXPECT_EQ(reader.optional_int("b", 7, 0, 10), 7);
  EXPECT_EQ(reader.optional_double("c", 2.5, 0, 10), 2.5);
  EXPECT_EQ(reader.optional_string("d", "x"), "x");
  EXPECT_EQ(reader.optional_enum("e", "ws", {"os", "ws"}), "ws");
  EXPECT_TRUE(reader.optional_bool("f", true));
  EXPECT_EQ(reader.required_int("a", 0, 10), 1);
  EXPECT_TRUE(reader.has("a"));
  EXPECT_FALSE(reader.has("b"));
}

TEST(MapReader, EnumErrorListsAllowedValuesAndSuggests) {
  const ConfigNode root = parse_config_text("dataflow: wss\n", "f");
  MapReader reader(root);
  EXPECT_EQ(error_text([&] {
              reader.required_enum("dataflow", {"os", "ws", "is"});
            }),
            "f:1:11: dataflow: invalid value 'wss' for 'dataflow'; did you mean 'ws'? "
            "(allowed: os, ws, is)");
}

TEST(MapReader, BooleansAcceptYamlSpellings) {
  const ConfigNode root = parse_config_text("a: yes\nb: False\nc: maybe\n", "f");
  MapReader reader(root);
  EXPECT_TRUE(reader.optional_bool("a", false));
  EXPECT_FALSE(reader.optional_bool("b", true));
  EXPECT_THAT(error_text([&] { reader.optional_bool("c", true); }),
              HasSubstr("expected true or false, got 'maybe'"));
}

TEST(MapReader, NonMapNodeIsRejected) {
  const ConfigNode root = parse_config_text("- 1\n", "f");
  EXPECT_THAT(error_text([&] { MapReader reader(root); }), HasSubstr("expected a map, got a list"));
}

TEST(NearestSpelling, SuggestsOnlyPlausibleMisspellings) {
  const std::vector<std::string> keys = {"rows", "cols", "dataflow", "stride"};
  EXPECT_EQ(nearest_spelling("rwos", keys), "rows");
  EXPECT_EQ(nearest_spelling("datafow", keys), "dataflow");
  EXPECT_EQ(nearest_spelling("stirde", keys), "stride");
  EXPECT_EQ(nearest_spelling("banana", keys), "");
  EXPECT_EQ(nearest_spelling("k", {"m"}), "");
}

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", "abc"), 3);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);
  EXPECT_EQ(edit_distance("rows", "rows"), 0);
  EXPECT_EQ(edit_distance("rwos", "rows"), 2);
}

}  // namespace
}  // namespace polyarch

namespace polyarch {
namespace {

TEST(MapReader, MissingRequiredKeyPointsAtItsMisspelling) {
  for (const char* typo : {"colls", "clos", "col"}) {
    const ConfigNode root =
        parse_config_text(std::string("unit:\n  rows: 1\n  ") + typo + ": 2\n", "m.yaml");
    MapReader reader(*root.find("unit"));
    reader.required_int("rows", 1, 10);
    auto error = capture_error([&] { reader.required_int("cols", 1, 10); });
    ASSERT_TRUE(error) << typo;
    EXPECT_NE(error->message().find("did you mean 'cols'"), std::string::npos) << error->message();
    EXPECT_EQ(error->where().line, 3) << typo;
  }
}

}  // namespace
}  // namespace polyarch
