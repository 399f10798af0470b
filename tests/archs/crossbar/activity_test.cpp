// A crossbar op's activity in its mapping: the keys and order reports show, an exact round
// trip, and an error naming the key where one is missing.
#include "archs/crossbar/activity.h"

#include <gtest/gtest.h>

#include "tests/base/error_capture.h"
#include "tests/support/recorded_op.h"

namespace polyarch::archs::crossbar {
namespace {

const CrossbarActivity kActivity{1000, 200, 30000, 4};

sim::OpResult recorded(const CrossbarActivity& activity) {
  return test_support::recorded_op("conv", "xbar", {{"program_ns", 0.0}},
                                   [&](auto& mapping) { record_activity(activity, mapping); });
}

TEST(CrossbarActivity, WritesTheFourCountsAfterThePlan) {
  EXPECT_EQ(recorded(kActivity).mapping.dump(),
            R"({"program_ns":0.0,"adc_conversions":1000,"dac_drives":200,"cell_reads":30000,)"
            R"("cells_reprogrammed":4})");
}

TEST(CrossbarActivity, ReadsBackWhatWasWritten) {
  EXPECT_EQ(crossbar_activity_of(recorded(kActivity)), kActivity);
}

TEST(CrossbarActivity, AMissingCountIsAnErrorNamingIt) {
  sim::OpResult op = recorded(kActivity);
  op.mapping.erase("cell_reads");
  EXPECT_EQ(testing::error_text([&] { crossbar_activity_of(op); }),
            "mapping.cell_reads: op 'conv' on unit 'xbar': missing");
}

}  // namespace
}  // namespace polyarch::archs::crossbar
