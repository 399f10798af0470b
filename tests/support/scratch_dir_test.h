#pragma once
// A fixture with an empty directory of its own, named after the running test and removed
// afterwards, for tests that write files (arch and workload YAML, outputs, databases).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace polyarch::test_support {

class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("polyarch_" + std::string(test->test_suite_name()) + "_" + test->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name) << content;
  }

  std::filesystem::path dir_;
};

}  // namespace polyarch::test_support
