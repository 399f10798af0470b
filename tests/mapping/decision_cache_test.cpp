#include "mapping/cache/decision_cache.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace polyarch::mapping {
namespace {

std::filesystem::path fresh_directory(const std::string& name) {
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("polyarch_cache_test_" + name);
  std::filesystem::remove_all(directory);
  return directory;
}

DecisionKey key() {
  return {.op_shape = "gemm m=512 n=768 k=768",
          .unit_config = R"({"rows":32})",
          .objective = "latency",
          .searcher = "exhaustive"};
}

CachedDecision decision() {
  return {.point = {1, 4, 0, 1, 2},
          .mapping = "dataflow=ws",
          .latency_s = 1.5e-4,
          .energy_j = 2e-5,
          .score = 1.5e-4,
          .bound = "compute"};
}

TEST(DecisionCache, StoredDecisionIsFoundByANewCacheOnTheSameDirectory) {
  const std::filesystem::path directory = fresh_directory("roundtrip");
  DecisionCache(directory, nullptr).store(key(), decision());
  const std::optional<CachedDecision> found = DecisionCache(directory, nullptr).lookup(key());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->point, decision().point);
  EXPECT_DOUBLE_EQ(found->latency_s, 1.5e-4);
  EXPECT_EQ(found->bound, "compute");
  // Nothing but the entry is left behind (the temporary file was renamed).
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(DecisionCache, AnotherObjectiveOrUnitIsAMiss) {
  const std::filesystem::path directory = fresh_directory("miss");
  const DecisionCache cache(directory, nullptr);
  cache.store(key(), decision());
  DecisionKey other = key();
  other.objective = "edp";
  EXPECT_FALSE(cache.lookup(other).has_value());
  other = key();
  other.unit_config = R"({"rows":64})";
  EXPECT_FALSE(cache.lookup(other).has_value());
}

TEST(DecisionCache, CorruptedEntryIsIgnoredWithAWarningAndReplacedByTheNextStore) {
  const std::filesystem::path directory = fresh_directory("corrupt");
  std::vector<std::string> warnings;
  const DecisionCache cache(directory, [&](const std::string& line) { warnings.push_back(line); });
  cache.store(key(), decision());
  std::ofstream(cache.entry_path(key()), std::ios::trunc) << "{\"schema\": \"polyarch.map";
  EXPECT_FALSE(cache.lookup(key()).has_value());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("corrupted"), std::string::npos);
  cache.store(key(), decision());
  EXPECT_TRUE(cache.lookup(key()).has_value());
}

TEST(DecisionCache, DefaultDirectoryFollowsXdgCacheHome) {
  const char* saved = std::getenv("XDG_CACHE_HOME");
  const std::string previous = saved ? saved : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(default_cache_directory(), std::filesystem::path("/tmp/xdg-test/polyarch"));
  if (saved) {
    setenv("XDG_CACHE_HOME", previous.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
}

// Another build of polyarch may cost mappings differently: an entry written by another program
// (its key's `program`: the executable's size and modification time) is a miss.
TEST(DecisionCache, AnEntryOfAnotherBuildIsAMiss) {
  const std::filesystem::path directory = fresh_directory("other_build");
  const DecisionCache cache(directory, nullptr);
  cache.store(key(), decision());
  const std::filesystem::path entry = std::filesystem::directory_iterator(directory)->path();
  std::ifstream in(entry);
  nlohmann::json json = nlohmann::json::parse(in);
  const std::string program = json.at("key").at("program").get<std::string>();
  EXPECT_NE(program.find('@'), std::string::npos) << program;  // size@mtime on Linux
  json["key"]["program"] = "1@2";
  std::ofstream(entry) << json.dump();
  EXPECT_FALSE(cache.lookup(key()).has_value());
}

}  // namespace
}  // namespace polyarch::mapping
