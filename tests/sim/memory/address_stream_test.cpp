#include "sim/memory/address_stream.h"

#include <gtest/gtest.h>

namespace polyarch::sim {
namespace {

TEST(AddressStream, WalksTheRangesInOrderAndStartsOverAfterTheLast) {
  AddressStream stream;
  stream.reset({{1000, 100}, {5000, 50}}, {});
  const std::vector<AddressRange> first = stream.take(120);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].base, 1000);
  EXPECT_EQ(first[0].bytes, 100);
  EXPECT_EQ(first[1].base, 5000);
  EXPECT_EQ(first[1].bytes, 20);
  const std::vector<AddressRange> second = stream.take(60);  // 30 left, then from the top
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].base, 5020);
  EXPECT_EQ(second[0].bytes, 30);
  EXPECT_EQ(second[1].base, 1000);
  EXPECT_EQ(second[1].bytes, 30);
}

TEST(AddressStream, AdjacentRangesMergeAndAnEmptyListUsesTheFallback) {
  AddressStream stream;
  stream.reset({{0, 64}, {64, 64}, {512, 0}}, {});
  const std::vector<AddressRange> merged = stream.take(128);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].bytes, 128);
  stream.reset({}, {4096, 32});
  const std::vector<AddressRange> fallback = stream.take(40);
  ASSERT_EQ(fallback.size(), 2u);
  EXPECT_EQ(fallback[0].base, 4096);
  EXPECT_EQ(fallback[1].base, 4096);
  EXPECT_EQ(fallback[1].bytes, 8);
}

}  // namespace
}  // namespace polyarch::sim
