// `base:` includes and merge rules.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/config_tree.h"
#include "tests/base/error_capture.h"

namespace polyarch {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::source_path;
using ::testing::HasSubstr;

std::vector<std::string> unit_names(const ConfigNode& root) {
  std::vector<std::string> names;
  for (const ConfigNode& unit : root.find("units")->items()) {
    names.push_back(unit.find("name")->scalar());
  }
  return names;
}

TEST(ConfigMerge, OverrideKeysWinAndBaseKeysRemain) {
  const ConfigNode root =
      load_config_with_base(source_path("tests/data/config_tree/override_soc.yaml"));
  EXPECT_EQ(root.find("name")->scalar(), "derived-soc");
  EXPECT_EQ(root.find("clock_ghz")->scalar(), "1.0");
  EXPECT_EQ(root.find("base"), nullptr);
  const ConfigNode* dram = root.find("memory")->find("dram");
  EXPECT_EQ(dram->find("bandwidth_gbps")->scalar(), "900");
  EXPECT_EQ(dram->find("kind")->scalar(), "hbm2");
  EXPECT_EQ(dram->find("channels")->scalar(), "8");
}

TEST(ConfigMerge, NamedUnitListsMergeItemByItemByName) {
  const ConfigNode root =
      load_config_with_base(source_path("tests/data/config_tree/override_soc.yaml"));
  EXPECT_EQ(unit_names(root), (std::vector<std::string>{"mxu", "vpu", "pim0"}));
  const ConfigNode& mxu = root.find("units")->items()[0];
  EXPECT_EQ(mxu.find("rows")->scalar(), "256");
  EXPECT_EQ(mxu.find("cols")->scalar(), "128");
  EXPECT_EQ(mxu.find("kind")->scalar(), "systolic");
}

TEST(ConfigMerge, MergedNodesKeepTheirOwnFileLineAndNewKeyPath) {
  const ConfigNode root =
      load_config_with_base(source_path("tests/data/config_tree/override_soc.yaml"));
  const ConfigNode& mxu = root.find("units")->items()[0];
  EXPECT_THAT(mxu.find("rows")->where().file, HasSubstr("override_soc.yaml"));
  EXPECT_EQ(mxu.find("rows")->where().line, 7);
  EXPECT_THAT(mxu.find("cols")->where().file, HasSubstr("base_soc.yaml"));
  EXPECT_EQ(mxu.find("cols")->where().line, 9);
  const ConfigNode& pim = root.find("units")->items()[2];
  EXPECT_EQ(pim.find("kind")->where().key_path, "units[2].kind");
}

TEST(ConfigMerge, ListsWithoutNamesAreReplaced) {
  const ConfigNode root =
      load_config_with_base(source_path("tests/data/config_tree/override_soc.yaml"));
  ASSERT_EQ(root.find("tags")->items().size(), 1u);
  EXPECT_EQ(root.find("tags")->items()[0].scalar(), "c");
}

TEST(ConfigMerge, BaseChainsResolveRelativeToEachIncludingFile) {
  const ConfigNode root =
      load_config_with_base(source_path("tests/data/config_tree/chain/top.yaml"));
  EXPECT_EQ(root.find("clock_ghz")->scalar(), "2.0");
  EXPECT_EQ(root.find("name")->scalar(), "derived-soc");
  EXPECT_EQ(unit_names(root).size(), 3u);
}

TEST(ConfigMerge, BaseCycleIsAnErrorAtTheBaseKey) {
  auto error = capture_error(
      [] { load_config_with_base(source_path("tests/data/config_tree/cycle_a.yaml")); });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("cycle"));
  EXPECT_EQ(error->where().key_path, "base");
  EXPECT_EQ(error->where().line, 1);
}

TEST(ConfigMerge, MissingBaseFileIsAnErrorAtTheBaseKey) {
  auto error = capture_error(
      [] { load_config_with_base(source_path("tests/data/config_tree/missing_base.yaml")); });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("does_not_exist.yaml"));
  EXPECT_THAT(error->message(), HasSubstr("not found"));
  EXPECT_EQ(error->where().line, 2);
}

TEST(ConfigMerge, ScalarOverridesReplaceMapsAndViceVersa) {
  const ConfigNode base = parse_config_text("a: {x: 1}\nb: 2\n", "base");
  const ConfigNode over = parse_config_text("a: 5\nb: {y: 3}\n", "over");
  const ConfigNode merged = merge_config(base, over);
  EXPECT_EQ(merged.find("a")->scalar(), "5");
  EXPECT_EQ(merged.find("b")->find("y")->where().key_path, "b.y");
}

}  // namespace
}  // namespace polyarch
