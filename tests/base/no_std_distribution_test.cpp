// No source in the tree draws through a std:: distribution: their output for a seed differs
// between standard libraries, so seeded results (placements, sweeps, property tests) would
// not reproduce across platforms. base/random_draw.h writes the draws out instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "base/random_draw.h"

namespace {

namespace fs = std::filesystem;

bool is_source(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".h" || extension == ".cpp" || extension == ".hpp" || extension == ".cc";
}

// Build trees and version-control data are not sources.
bool skipped(const fs::path& relative) {
  const std::string top = relative.begin()->string();
  return top.rfind("build", 0) == 0 || top.rfind('.', 0) == 0 || top == "out";
}

TEST(SourceTree, NoSourceUsesAStdDistribution) {
  const fs::path source = POLYARCH_SOURCE_DIR;
  // Spelled in two pieces so that this file does not match itself.
  const std::string pattern = std::string("_distribution") + "<";
  std::vector<std::string> found;
  for (auto entry = fs::recursive_directory_iterator(source);
       entry != fs::recursive_directory_iterator(); ++entry) {
    const fs::path relative = fs::relative(entry->path(), source);
    if (entry->is_directory() && skipped(relative)) {
      entry.disable_recursion_pending();
      continue;
    }
    if (!entry->is_regular_file() || !is_source(entry->path())) continue;
    std::ifstream in(entry->path());
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      if (line.find(pattern) != std::string::npos) {
        found.push_back(relative.string() + ":" + std::to_string(line_number) + ": " + line);
      }
    }
  }
  std::string listing;
  for (const std::string& hit : found) listing += "  " + hit + "\n";
  EXPECT_TRUE(found.empty()) << "std distributions (use base/random_draw.h):\n" << listing;
}

TEST(RandomDraw, DrawsStayInTheirRangesAndCoverThem) {
  std::mt19937_64 engine(7);
  std::vector<int> seen(7, 0);
  for (int i = 0; i < 7000; ++i) {
    const int64_t value = polyarch::random_int(engine, -3, 3);
    ASSERT_GE(value, -3);
    ASSERT_LE(value, 3);
    ++seen[static_cast<size_t>(value + 3)];
  }
  // Each of 7 values expects 1000 draws; 5 standard deviations is about 150.
  for (int count : seen) EXPECT_NEAR(count, 1000, 150);
  std::mt19937 narrow(7);
  double sum = 0;
  for (int i = 0; i < 10000; ++i) {
    const double value = polyarch::random_real(narrow, 2.0, 4.0);
    ASSERT_GE(value, 2.0);
    ASSERT_LT(value, 4.0);
    sum += value;
  }
  EXPECT_NEAR(sum / 10000, 3.0, 0.03);  // the mean; its standard error is 0.006
}

TEST(RandomDraw, ASeedGivesTheSameDrawsEverywhere) {
  // mt19937_64's 10000th output for the default seed is fixed by the standard
  // (9981545732273789042), so the draws built on it are too.
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(polyarch::random_bits64(engine), 9981545732273789042ull);
  std::mt19937_64 again(42);
  std::mt19937_64 copy(42);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(polyarch::random_int(again, 0, 999), polyarch::random_int(copy, 0, 999));
  }
}

}  // namespace
