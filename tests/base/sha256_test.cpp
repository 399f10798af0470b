#include "base/sha256.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "tests/base/error_capture.h"

namespace polyarch {
namespace {

using polyarch::testing::capture_error;
using ::testing::HasSubstr;

// FIPS 180-2 test vectors.
TEST(Sha256, MatchesStandardTestVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, FileDigestEqualsDigestOfItsBytes) {
  const auto path = std::filesystem::temp_directory_path() / "polyarch_sha256_test.bin";
  // Larger than the read buffer, so the chunked path is exercised.
  const std::string bytes(200000, 'x');
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
  }
  EXPECT_EQ(sha256_file_hex(path), sha256_hex(bytes));
  std::filesystem::remove(path);
}

TEST(Sha256, MissingFileIsABadInputErrorNamingIt) {
  auto error = capture_error([] { sha256_file_hex("/nonexistent/file.yaml"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().file, "/nonexistent/file.yaml");
  EXPECT_THAT(error->message(), HasSubstr("not found"));
}

}  // namespace
}  // namespace polyarch
