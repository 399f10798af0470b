// A simd op's activity in its mapping: the keys and order reports show, an exact round trip,
// and an error naming the key where one is missing or names no dtype.
#include "archs/simd/activity.h"

#include <gtest/gtest.h>

#include "tests/base/error_capture.h"
#include "tests/support/recorded_op.h"

namespace polyarch::archs::simd {
namespace {

const SimdActivity kActivity{
    {{ir::DType::kInt8, 5}, {ir::DType::kBf16, 6}}, {{ir::DType::kFp32, 7}}, 8, 9};

sim::OpResult recorded(const SimdActivity& activity) {
  return test_support::recorded_op("attn", "gpu", {{"kernel", "flash_attention"}},
                                   [&](auto& mapping) { record_activity(activity, mapping); });
}

TEST(SimdActivity, WritesCountsByDtypeName) {
  EXPECT_EQ(recorded(kActivity).mapping.dump(),
            R"({"kernel":"flash_attention","activity":{"matrix_macs":{"int8":5,"bf16":6},)"
            R"("vector_ops":{"fp32":7},"sfu_ops":8,"thread_instructions":9}})");
}

TEST(SimdActivity, ReadsBackWhatWasWrittenEmptyGroupsToo) {
  EXPECT_EQ(simd_activity_of(recorded(kActivity)), kActivity);
  const SimdActivity lanes_only{{}, {{ir::DType::kBf16, 3}}, 0, 2};  // no matrix engine
  EXPECT_EQ(simd_activity_of(recorded(lanes_only)), lanes_only);
}

TEST(SimdActivity, AMissingGroupOrAnUnknownDtypeIsAnErrorNamingIt) {
  sim::OpResult op = recorded(kActivity);
  op.mapping["activity"]["matrix_macs"]["bf17"] = 1;
  EXPECT_EQ(testing::error_text([&] { simd_activity_of(op); }),
            "mapping.activity.matrix_macs.bf17: op 'attn' on unit 'gpu': 'bf17' is not a dtype");
  op.mapping["activity"].erase("thread_instructions");
  op.mapping["activity"]["matrix_macs"].erase("bf17");
  EXPECT_EQ(testing::error_text([&] { simd_activity_of(op); }),
            "mapping.activity.thread_instructions: op 'attn' on unit 'gpu': missing");
  op.mapping["activity"]["thread_instructions"] = 9;
  op.mapping["activity"].erase("sfu_ops");
  op.mapping["activity"]["matrix_macs"].erase("bf17");
  EXPECT_EQ(testing::error_text([&] { simd_activity_of(op); }),
            "mapping.activity.sfu_ops: op 'attn' on unit 'gpu': missing");
}

}  // namespace
}  // namespace polyarch::archs::simd
