// `polyarch compile --explain` through the real program: decisions per op (every unit kind
// with a searched mapping, cost and bound), and the decision cache across two runs (the second
// reads every decision from disk).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>

namespace polyarch::mapping {
namespace {

struct Output {
  std::string text;
  int status = 0;
};

Output run(const std::string& arguments) {
  const std::string command = std::string(POLYARCH_CLI) + " " + arguments + " 2>&1";
  Output output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {"popen failed", -1};
  std::array<char, 4096> buffer;
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) output.text += buffer.data();
  output.status = pclose(pipe);
  return output;
}

int count(const std::string& text, const std::string& needle) {
  int found = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++found;
  }
  return found;
}

// The --explain section of the output.
std::string decisions(const std::string& text) {
  const auto at = text.find("mapping decisions:");
  return at == std::string::npos ? "" : text.substr(at);
}

std::string explain_args(const std::filesystem::path& cache) {
  const std::string root = POLYARCH_SOURCE_DIR;
  return "compile --arch " + root + "/configs/arch/mixed_soc.yaml --workload " + root +
         "/workloads/bert_base_gemms.yaml --explain --cache-dir " + cache.string();
}

class CompileExplain : public testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(POLYARCH_CLI)) GTEST_SKIP() << "polyarch not built";
    // One directory per test: ctest runs the tests of this file in parallel processes.
    cache_ = std::filesystem::temp_directory_path() /
             ("polyarch_explain_cache_" +
              std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(cache_);
  }
  std::filesystem::path cache_;
};

TEST_F(CompileExplain, ListsChosenUnitAlternativesAndWhy) {
  const Output output = run(explain_args(cache_));
  ASSERT_EQ(output.status, 0) << output.text;
  const int ops = count(decisions(output.text), "\nop ");
  EXPECT_GT(ops, 0);
  EXPECT_EQ(count(output.text, "  chosen "), ops);
  EXPECT_EQ(count(output.text, "  why: "), ops);
  EXPECT_NE(output.text.find("alt      vector"), std::string::npos);  // the simd alternative
  EXPECT_NE(output.text.find("-bound and beats"), std::string::npos);
  EXPECT_NE(output.text.find("mapping dataflow="), std::string::npos);
}

// The block of one op in the decisions: its header line up to the next op's.
std::string op_block(const std::string& text, const std::string& op) {
  const std::string all = decisions(text);
  const auto at = all.find("\nop " + op + " (");
  if (at == std::string::npos) return "";
  const auto end = all.find("\nop ", at + 1);
  return all.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The unit's line in an op block gives a latency, an energy and a bound, and the next line the
// searched mapping.
void expect_searched_option(const std::string& block, const std::string& unit,
                            const std::string& kind) {
  const std::regex line("  (chosen|alt) +" + unit + " +" + kind +
                        " +latency \\S+ s  energy \\S+ J  bound (compute|buffer|dram|noc)\n"
                        " +mapping \\w+=\\S+");
  EXPECT_TRUE(std::regex_search(block, line)) << unit << " (" << kind << ") in\n" << block;
}

TEST_F(CompileExplain, EveryUnitKindAnswersAGemmWithAMappingAndABound) {
  const std::string root = POLYARCH_SOURCE_DIR;
  const Output output = run("compile --arch " + root + "/tests/data/explain/all_kinds_soc.yaml" +
                            " --workload " + root + "/tests/data/explain/decode_projection.yaml" +
                            " --explain --no-cache");
  ASSERT_EQ(output.status, 0) << output.text;
  const std::string block = op_block(output.text, "proj");
  for (const auto& [unit, kind] :
       {std::pair{"mxu", "systolic"}, {"vector", "simd"}, {"pim", "pim"}, {"cpu", "mimd"},
        {"xbar", "crossbar"}, {"fabric", "dataflow"}}) {
    expect_searched_option(block, unit, kind);
  }
  EXPECT_EQ(count(block, "[estimate]"), 0) << block;
  EXPECT_NE(block.find("  why: "), std::string::npos);
}

TEST_F(CompileExplain, MixedSocListsEveryUnitThatRunsABertGemmWithItsMapping) {
  const Output output = run(explain_args(cache_));
  ASSERT_EQ(output.status, 0) << output.text;
  const std::string block = op_block(output.text, "query");
  expect_searched_option(block, "mxu", "systolic");
  expect_searched_option(block, "vector", "simd");
  EXPECT_EQ(count(block, "[estimate]"), 0) << block;
}

TEST_F(CompileExplain, SecondRunReadsEveryDecisionFromTheCacheAndAgrees) {
  const Output first = run(explain_args(cache_));
  ASSERT_EQ(first.status, 0) << first.text;
  EXPECT_GT(count(first.text, "[searched"), 0);
  const Output second = run(explain_args(cache_));
  ASSERT_EQ(second.status, 0) << second.text;
  EXPECT_EQ(count(second.text, "[searched"), 0);
  EXPECT_EQ(count(second.text, "  chosen "), count(first.text, "  chosen "));
  // Same decisions either way: only the source tags differ.
  auto strip = [](const std::string& text) {
    return std::regex_replace(decisions(text), std::regex("  \\[(cached|searched[^\\]]*)\\]"), "");
  };
  EXPECT_EQ(strip(first.text), strip(second.text));
}

TEST_F(CompileExplain, CorruptedCacheEntryWarnsAndIsSearchedAgain) {
  ASSERT_EQ(run(explain_args(cache_)).status, 0);
  for (const auto& entry : std::filesystem::directory_iterator(cache_)) {
    std::ofstream(entry.path(), std::ios::trunc) << "{ not json";
    break;
  }
  const Output output = run(explain_args(cache_));
  ASSERT_EQ(output.status, 0) << output.text;
  EXPECT_NE(output.text.find("warning: ignoring corrupted mapping cache entry"), std::string::npos);
  EXPECT_GT(count(output.text, "[searched"), 0);
}

// Attention is explained as it runs: on the mixed SoC the products go to the array and the
// softmax to the vector unit (unfused), so the decisions list the three parts, not the fused op.
TEST_F(CompileExplain, AttentionIsExplainedInTheFormItRuns) {
  const std::string root = POLYARCH_SOURCE_DIR;
  const Output output = run("compile --arch " + root + "/configs/arch/mixed_soc.yaml" +
                            " --workload attention:1,8,1024,64 --explain --no-cache");
  ASSERT_EQ(output.status, 0) << output.text;
  const std::regex form(
      R"(attention forms:\n  (\S+): unfused \(fused \S+ s, unfused \S+ s\)\n)"
      R"(    reason: qk on mxu, softmax on vector, pv on mxu)");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(output.text, match, form)) << output.text;
  const std::string op = match[1];
  for (const char* part : {".qk", ".softmax", ".pv"}) {
    EXPECT_NE(op_block(output.text, op + part), "") << op << part << " in\n" << output.text;
  }
  EXPECT_EQ(op_block(output.text, op), "") << output.text;
}

TEST_F(CompileExplain, ExplainNeedsAnArchAndAKnownObjective) {
  const std::string root = POLYARCH_SOURCE_DIR;
  const Output no_arch =
      run("compile --workload " + root + "/workloads/bert_base_gemms.yaml --explain");
  EXPECT_EQ(WEXITSTATUS(no_arch.status), 2) << no_arch.text;
  const Output bad = run(explain_args(cache_) + " --objective speed");
  EXPECT_EQ(WEXITSTATUS(bad.status), 2) << bad.text;
  EXPECT_NE(bad.text.find("--objective speed"), std::string::npos);
}

}  // namespace
}  // namespace polyarch::mapping
