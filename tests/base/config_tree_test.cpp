// Parsing: locations, key paths, and every input the parser must reject.
#include "base/config_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

namespace polyarch {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::error_text;
using polyarch::testing::source_path;
using ::testing::HasSubstr;

TEST(ConfigTree, LocationsAreOneBasedLineAndColumnOfTheValue) {
  const ConfigNode root =
      parse_config_text("name: soc\nunits:\n  - name: mxu\n    rows: 128\n", "arch.yaml");
  const ConfigNode& rows = *root.find("units")->items()[0].find("rows");
  EXPECT_EQ(rows.where().file, "arch.yaml");
  EXPECT_EQ(rows.where().line, 4);
  EXPECT_EQ(rows.where().column, 11);
  EXPECT_EQ(rows.where().key_path, "units[0].rows");
  EXPECT_EQ(root.find("name")->where().line, 1);
  EXPECT_EQ(root.find("name")->where().column, 7);
}

TEST(ConfigTree, FlowStyleNodesKeepTheirColumns) {
  const ConfigNode root = parse_config_text("layers: [{name: a, m: 4}]\n", "w.yaml");
  const ConfigNode* m = root.find("layers")->items()[0].find("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->where().line, 1);
  EXPECT_EQ(m->where().column, 23);
  EXPECT_EQ(m->where().key_path, "layers[0].m");
}

TEST(ConfigTree, MapsKeepFileOrder) {
  const ConfigNode root = parse_config_text("zeta: 1\nalpha: 2\nmid: 3\n", "f");
  ASSERT_EQ(root.entries().size(), 3u);
  EXPECT_EQ(root.entries()[0].first, "zeta");
  EXPECT_EQ(root.entries()[2].first, "mid");
}

TEST(ConfigTree, PlainNullSpellingsAreNullButQuotedOnesAreText) {
  const ConfigNode root = parse_config_text("a: ~\nb: null\nc: '~'\nd:\n", "f");
  EXPECT_TRUE(root.find("a")->is_null());
  EXPECT_TRUE(root.find("b")->is_null());
  ASSERT_TRUE(root.find("c")->is_scalar());
  EXPECT_EQ(root.find("c")->scalar(), "~");
  EXPECT_TRUE(root.find("d")->is_null());
  EXPECT_EQ(root.find("d")->where().line, 4);
}

TEST(ConfigTree, EmptyTextIsANullDocument) { EXPECT_TRUE(parse_config_text("", "f").is_null()); }

TEST(ConfigTree, AnchorsAndAliasesCopyTheNode) {
  const ConfigNode root = parse_config_text("a: &x {rows: 4}\nb: *x\n", "f");
  ASSERT_TRUE(root.find("b")->is_map());
  EXPECT_EQ(root.find("b")->find("rows")->scalar(), "4");
  EXPECT_EQ(root.find("b")->find("rows")->where().key_path, "b.rows");
}

TEST(ConfigTree, SyntaxErrorsCarryYamlPosition) {
  auto error = capture_error([] { parse_config_text("a: 1\nb: [1, 2\n", "bad.yaml"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().file, "bad.yaml");
  EXPECT_GT(error->where().line, 0);
  EXPECT_THAT(error->message(), HasSubstr("invalid YAML"));
}

TEST(ConfigTree, DuplicateKeysAreRejectedAtTheSecondKey) {
  auto error = capture_error([] { parse_config_text("u:\n  rows: 1\n  rows: 2\n", "d.yaml"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().line, 3);
  EXPECT_EQ(error->where().column, 3);
  EXPECT_EQ(error->where().key_path, "u.rows");
  EXPECT_THAT(error->message(), HasSubstr("duplicate key 'rows'"));
}

TEST(ConfigTree, NonUtf8TextIsRejectedNamingTheLine) {
  auto error = capture_error([] { parse_config_text("a: 1\nb: caf\xE9\n", "l.yaml"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().line, 2);
  EXPECT_EQ(error->where().column, 7);
  EXPECT_THAT(error->message(), HasSubstr("not valid UTF-8"));
  EXPECT_THAT(error->message(), HasSubstr("line 2"));
}

TEST(ConfigTree, OverlongUtf8EncodingIsRejected) {
  EXPECT_THAT(error_text([] { parse_config_text("a: \xC0\xAF\n", "f"); }),
              HasSubstr("not valid UTF-8"));
}

TEST(ConfigTree, ValidMultibyteUtf8IsAccepted) {
  const ConfigNode root =
      parse_config_text("label: \"caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80\"\n", "f");
  EXPECT_EQ(root.find("label")->scalar(), "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80");
}

std::string nested_lists(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(ConfigTree, NestingOf64LevelsIsAccepted) {
  EXPECT_NO_THROW(parse_config_text(nested_lists(64), "f"));
}

TEST(ConfigTree, NestingDeeperThan64LevelsIsRejected) {
  EXPECT_THAT(error_text([] { parse_config_text(nested_lists(65), "f"); }),
              HasSubstr("deeper than 64"));
  // Far past the limit must fail the same way, not overflow the stack.
  EXPECT_THAT(error_text([] { parse_config_text(nested_lists(100000), "f"); }),
              HasSubstr("deeper than 64"));
}

TEST(ConfigTree, MultipleDocumentsAreRejected) {
  EXPECT_THAT(error_text([] { parse_config_text("a: 1\n---\nb: 2\n", "f"); }),
              HasSubstr("single YAML document"));
}

TEST(ConfigTree, NonScalarKeysAreRejected) {
  EXPECT_THAT(error_text([] { parse_config_text("? [a, b]\n: 1\n", "f"); }),
              HasSubstr("keys must be plain text"));
}

TEST(ConfigTree, MissingFileIsABadInputErrorNamingIt) {
  auto error = capture_error([] { load_config_file("/nonexistent/dir/arch.yaml"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_EQ(error->where().file, "/nonexistent/dir/arch.yaml");
  EXPECT_THAT(error->message(), HasSubstr("not found"));
}

TEST(ConfigTree, LoadedFileNodesNameTheFile) {
  const auto path = source_path("tests/data/config_tree/base_soc.yaml");
  const ConfigNode root = load_config_file(path);
  EXPECT_EQ(root.find("clock_ghz")->where().file, path.string());
  EXPECT_EQ(root.find("clock_ghz")->where().line, 2);
}

TEST(ConfigTree, NonUtf8FileIsRejected) {
  const auto path = source_path("tests/data/config_tree/latin1.yaml");
  auto error = capture_error([&] { load_config_file(path); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().file, path.string());
  EXPECT_EQ(error->where().line, 2);
}

}  // namespace
}  // namespace polyarch
