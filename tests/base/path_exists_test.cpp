// path_exists: std::filesystem::exists without its exception, so that a name the operating system
// rejects reaches the caller's located "does not exist" error (regression: fuzz_sweep_yaml found a
// sweep whose `base:` was longer than NAME_MAX ending the program with an uncaught
// filesystem_error).
#include "base/path_exists.h"

#include <gtest/gtest.h>

#include <string>

namespace polyarch {
namespace {

namespace fs = std::filesystem;

TEST(PathExists, ANameTheSystemRejectsDoesNotExistAndDoesNotThrow) {
  const fs::path too_long = fs::temp_directory_path() / std::string(300, 'x');
  EXPECT_THROW((void)fs::exists(too_long), fs::filesystem_error);  // why the helper exists
  EXPECT_FALSE(path_exists(too_long));
  EXPECT_FALSE(is_regular_file_path(too_long));
}

TEST(PathExists, ExistingFilesAndDirectoriesExist) {
  const fs::path source = POLYARCH_SOURCE_DIR;
  EXPECT_TRUE(path_exists(source / "README.md"));
  EXPECT_TRUE(is_regular_file_path(source / "README.md"));
  EXPECT_TRUE(path_exists(source / "configs"));
  EXPECT_FALSE(is_regular_file_path(source / "configs"));
  EXPECT_FALSE(path_exists(source / "no_such_file.yaml"));
}

}  // namespace
}  // namespace polyarch
