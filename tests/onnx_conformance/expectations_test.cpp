#include "tests/onnx_conformance/expectations.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace polyarch::onnx_conformance {
namespace {

TEST(Expectations, TextReadsBackAsTheSameOutcomes) {
  const Expectations written = {
      {"test_abs", {Status::kPass, ""}},
      {"test_acos", {Status::kRefused, "model.onnx: opset_import: the model uses ONNX opset 7"}},
      {"test_loop13_seq", {Status::kSkipped, "input 'x' is a sequence"}},
  };
  const Expectations read = parse_expectations(expectations_text(written), "e.tsv");
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read.at("test_acos").status, Status::kRefused);
  EXPECT_EQ(read.at("test_acos").reason, "model.onnx: opset_import: the model uses ONNX opset 7");
  EXPECT_EQ(read.at("test_loop13_seq").status, Status::kSkipped);
}

TEST(Expectations, UnknownStatusesMissingFieldsAndRepeatsAreErrors) {
  EXPECT_THROW(parse_expectations("test_abs\tpassed\t\n", "e.tsv"), std::runtime_error);
  EXPECT_THROW(parse_expectations("test_abs\tpass\n", "e.tsv"), std::runtime_error);
  EXPECT_THROW(parse_expectations("test_abs\tpass\t\ntest_abs\twrong\tx\n", "e.tsv"),
               std::runtime_error);
}

TEST(Expectations, SummaryCountsEachStatusAndGroupsRefusalsOfAnyNode) {
  const Expectations outcomes = {
      {"test_a", {Status::kPass, ""}},
      {"test_b", {Status::kRefused, "model.onnx: graph.node[0] 'X_0' (Trilu): has no lowering"}},
      {"test_c", {Status::kRefused, "model.onnx: graph.node[2] 'tri' (Trilu): has no lowering"}},
      {"test_d", {Status::kRefused, "model.onnx: graph.node[0] 'Y_0' (Cos): has no lowering"}},
  };
  const std::string summary = summary_markdown(outcomes);
  EXPECT_NE(summary.find("| pass | 1 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| refused | 3 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| wrong | 0 |"), std::string::npos) << summary;
  // The larger group first.
  const std::size_t trilu = summary.find("| Trilu: has no lowering | 2 | test_b, test_c |");
  const std::size_t cos = summary.find("| Cos: has no lowering | 1 | test_d |");
  ASSERT_NE(trilu, std::string::npos) << summary;
  EXPECT_LT(trilu, cos);
}

TEST(Expectations, GeneratedSectionIsReplacedAndTheRestOfTheDocumentKept) {
  const std::string document = with_generated_section("# Title\n\nProse.\n", "old\n");
  EXPECT_EQ(generated_section(document), "old\n");
  const std::string updated = with_generated_section(document + "After.\n", "new\n");
  EXPECT_EQ(generated_section(updated), "new\n");
  EXPECT_EQ(updated.find("# Title\n\nProse.\n"), 0u);
  EXPECT_NE(updated.find("After.\n"), std::string::npos);
  EXPECT_EQ(updated.find("old"), std::string::npos);
}

}  // namespace
}  // namespace polyarch::onnx_conformance
