// A mimd op's activity in its mapping: the keys and order reports show, an exact round trip,
// and an error naming the key where one is missing, also through the unit's energy model.
#include "archs/mimd/activity.h"

#include <gtest/gtest.h>

#include "archs/mimd/kind.h"
#include "tests/base/error_capture.h"
#include "tests/support/recorded_op.h"

namespace polyarch::archs::mimd {
namespace {

sim::OpResult recorded(const MimdActivity& activity) {
  return test_support::recorded_op("fc", "cpu", {{"estimate_cycles", 9}},
                                   [&](auto& mapping) { record_activity(activity, mapping); });
}

TEST(MimdActivity, WritesTheSimulatedNocBytesAsAnInteger) {
  EXPECT_EQ(recorded({4096, 1234.0}).mapping.dump(),
            R"({"estimate_cycles":9,"noc_link_bytes":1234,"activity":{"flops":4096}})");
}

TEST(MimdActivity, ReadsBackWhatWasWrittenFractionsToo) {
  for (const MimdActivity& activity :
       {MimdActivity{4096, 1234.0}, MimdActivity{7, 0.1}, MimdActivity{int64_t{1} << 50, 1.5e18}}) {
    EXPECT_EQ(mimd_activity_of(recorded(activity)), activity);
  }
}

TEST(MimdActivity, AMissingFlopCountIsAnErrorNotTwiceTheMacs) {
  sim::OpResult op = recorded({4096, 1234.0});
  op.mapping["activity"].erase("flops");
  EXPECT_EQ(testing::error_text([&] { mimd_activity_of(op); }),
            "mapping.activity.flops: op 'fc' on unit 'cpu': missing");
}

TEST(MimdActivity, TheUnitsEnergyModelReadsItStrictly) {
  const MimdUnitConfig unit{MimdParams{}, nlohmann::ordered_json::object()};
  sim::OpResult op = recorded({4096, 1234.0});
  op.mapping.erase("noc_link_bytes");
  const sim::TechTable tech;
  EXPECT_EQ(testing::error_text([&] {
              unit.op_energy(op, {tech, "ddr4"});
            }),
            "mapping.noc_link_bytes: op 'fc' on unit 'cpu': missing");
}

}  // namespace
}  // namespace polyarch::archs::mimd
