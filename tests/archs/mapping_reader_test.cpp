// The strict reader of what a kind recorded in an op's mapping: a missing or mistyped key is an
// internal error naming the op, its unit and the key's path, never a default.
#include "archs/mapping_reader.h"

#include <gtest/gtest.h>

#include "tests/base/error_capture.h"
#include "tests/support/recorded_op.h"

namespace polyarch::archs {
namespace {

sim::OpResult op_with(nlohmann::ordered_json mapping) {
  return test_support::recorded_op("conv1", "fabric", std::move(mapping), [](auto&) {});
}

TEST(MappingReader, MissingKeyIsAnInternalErrorNamingTheOpTheUnitAndThePath) {
  const sim::OpResult op = op_with({{"activity", {{"macs", 3}}}});
  const auto error =
      testing::capture_error([&] { MappingReader(op).object("activity").count("alu_ops"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kRuntime);  // the writer's bug, not the user's input
  EXPECT_EQ(error->where().key_path, "mapping.activity.alu_ops");
  EXPECT_EQ(std::string(error->what()),
            "mapping.activity.alu_ops: op 'conv1' on unit 'fabric': missing");
}

TEST(MappingReader, MissingObjectIsNamedAtItsOwnPath) {
  const sim::OpResult op = op_with(nlohmann::ordered_json::object());
  EXPECT_EQ(testing::error_text([&] { MappingReader(op).object("activity"); }),
            "mapping.activity: op 'conv1' on unit 'fabric': missing");
}

TEST(MappingReader, MistypedValuesAreErrorsNamingWhatWasFound) {
  const sim::OpResult op = op_with(
      {{"macs", "12"}, {"ops", 1.5}, {"rate", "high"}, {"dtype", "bf17"}, {"counts", {1, 2}}});
  const MappingReader mapping(op);
  EXPECT_EQ(testing::error_text([&] { mapping.count("macs"); }),
            "mapping.macs: op 'conv1' on unit 'fabric': string, not an integer");
  // A count is an integer: a fraction would be a different quantity recorded under its name.
  EXPECT_EQ(testing::error_text([&] { mapping.count("ops"); }),
            "mapping.ops: op 'conv1' on unit 'fabric': number, not an integer");
  EXPECT_EQ(testing::error_text([&] { mapping.number("rate"); }),
            "mapping.rate: op 'conv1' on unit 'fabric': string, not a number");
  EXPECT_EQ(testing::error_text([&] { mapping.dtype("dtype"); }),
            "mapping.dtype: op 'conv1' on unit 'fabric': 'bf17' is not a dtype");
  EXPECT_EQ(testing::error_text([&] { mapping.object("counts"); }),
            "mapping.counts: op 'conv1' on unit 'fabric': array, not an object");
}

TEST(MappingReader, ReadsPresentValuesAsWritten) {
  const sim::OpResult op = op_with({{"flops", int64_t{1} << 40},
                                    {"rate", 7},
                                    {"dtype", "bf16"},
                                    {"by_dtype", {{"int8", 5}, {"bf16", 2}}}});
  const MappingReader mapping(op);
  EXPECT_EQ(mapping.count("flops"), int64_t{1} << 40);
  EXPECT_EQ(mapping.number("rate"), 7.0);  // an integer is a number too
  EXPECT_EQ(mapping.dtype("dtype"), ir::DType::kBf16);
  const std::vector<std::pair<std::string, int64_t>> expected{{"int8", 5}, {"bf16", 2}};
  EXPECT_EQ(mapping.object("by_dtype").counts(), expected);  // in the written order
}

TEST(MappingReader, AnEntryOfCountsThatIsNoIntegerIsNamed) {
  const sim::OpResult op = op_with({{"by_dtype", {{"int8", 5}, {"bf16", "two"}}}});
  EXPECT_EQ(testing::error_text([&] { MappingReader(op).object("by_dtype").counts(); }),
            "mapping.by_dtype.bf16: op 'conv1' on unit 'fabric': string, not an integer");
}

}  // namespace
}  // namespace polyarch::archs
