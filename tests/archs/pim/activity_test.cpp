// A PIM op's activity in its mapping: the keys and order reports show, an exact round trip,
// and an error naming the key where one is missing.
#include "archs/pim/activity.h"

#include <gtest/gtest.h>

#include "tests/base/error_capture.h"
#include "tests/support/recorded_op.h"

namespace polyarch::archs::pim {
namespace {

const PimActivity kActivity{{10, 9, 400, 2}, 0.975, 0.25, 12800, 96};

sim::OpResult recorded(const PimActivity& activity) {
  return test_support::recorded_op("gemv", "pim", {{"kernel", "gemv_rows"}, {"dtype", "fp16"}},
                                   [&](auto& mapping) { record_activity(activity, mapping); });
}

TEST(PimActivity, WritesCommandsRatesAndBytesInReportOrder) {
  EXPECT_EQ(recorded(kActivity).mapping.dump(),
            R"({"kernel":"gemv_rows","dtype":"fp16","commands":{"ACT":10,"PRE":9,"RD":400,)"
            R"("REF":2},"row_buffer_hit_rate":0.975,"pu_utilization":0.25,)"
            R"("internal_bytes":12800,"external_bytes":96})");
}

TEST(PimActivity, ReadsBackWhatWasWritten) {
  EXPECT_EQ(pim_activity_of(recorded(kActivity)), kActivity);
}

TEST(PimActivity, AMissingCommandIsAnErrorNamingIt) {
  sim::OpResult op = recorded(kActivity);
  op.mapping["commands"].erase("ACT");
  EXPECT_EQ(testing::error_text([&] { pim_activity_of(op); }),
            "mapping.commands.ACT: op 'gemv' on unit 'pim': missing");
}

TEST(PimCommands, AddUpKindByKind) {
  PimCommands total{1, 2, 3, 4};
  total += {10, 20, 30, 40};
  EXPECT_EQ(total, (PimCommands{11, 22, 33, 44}));
}

}  // namespace
}  // namespace polyarch::archs::pim
