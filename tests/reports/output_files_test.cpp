#include "reports/output_files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "base/error.h"

namespace polyarch::reports {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

TEST(OutputFiles, WritesAllFilesAndLeavesNoTemporaries) {
  fs::path dir = fs::temp_directory_path() / "polyarch_output_files_ok";
  fs::remove_all(dir);
  write_files_atomically(dir, {{"a.json", "{}"}, {"b.csv", "x\n"}});
  EXPECT_EQ(read_file(dir / "a.json"), "{}");
  EXPECT_EQ(read_file(dir / "b.csv"), "x\n");
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 2);
  fs::remove_all(dir);
}

TEST(OutputFiles, UnwritableDirectoryIsAnErrorNotACrash) {
  fs::path blocker = fs::temp_directory_path() / "polyarch_output_files_blocker";
  fs::remove_all(blocker);
  std::ofstream(blocker) << "a file where a directory should go";
  EXPECT_THROW(write_files_atomically(blocker / "sub", {{"a.json", "{}"}}), Error);
  fs::remove_all(blocker);
}

}  // namespace
}  // namespace polyarch::reports
