// A dataflow op's activity in its mapping: the keys and order reports show, an exact round trip,
// and an error naming the key where one is missing.
#include "archs/dataflow/activity.h"

#include <gtest/gtest.h>

#include "tests/base/error_capture.h"
#include "tests/support/recorded_op.h"

namespace polyarch::archs::dataflow {
namespace {

const DataflowActivity kActivity{ir::DType::kBf16, {11, 12, 13, 14, 15, 16}, 17};

sim::OpResult recorded(const DataflowActivity& activity) {
  return test_support::recorded_op("qk", "fabric", {{"ii", 2}}, [&](auto& mapping) {
    record_activity(activity, {{"steps_skipped", 4}}, mapping);
  });
}

TEST(DataflowActivity, WritesDtypeThenTheRunCountersThenTheCounts) {
  EXPECT_EQ(recorded(kActivity).mapping.dump(),
            R"({"ii":2,"dtype":"bf16","steps_skipped":4,"activity":{"macs":11,"alu_ops":12,)"
            R"("mul_ops":13,"special_ops":14,"scratchpad_bytes":15,"network_bit_hops":16,)"
            R"("config_bytes":17}})");
}

TEST(DataflowActivity, ReadsBackWhatWasWritten) {
  EXPECT_EQ(dataflow_activity_of(recorded(kActivity)), kActivity);
}

TEST(DataflowActivity, AMissingCountIsAnErrorNamingIt) {
  sim::OpResult op = recorded(kActivity);
  op.mapping["activity"].erase("config_bytes");
  EXPECT_EQ(testing::error_text([&] { dataflow_activity_of(op); }),
            "mapping.activity.config_bytes: op 'qk' on unit 'fabric': missing");
  op.mapping.erase("dtype");
  EXPECT_EQ(testing::error_text([&] { dataflow_activity_of(op); }),
            "mapping.dtype: op 'qk' on unit 'fabric': missing");
}

}  // namespace
}  // namespace polyarch::archs::dataflow
