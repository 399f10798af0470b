#include "compiler/passes/einsum_equation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

namespace polyarch::passes {
namespace {

using ::testing::HasSubstr;

ir::Op einsum_op() {
  ir::Op op;
  op.name = "einsum";
  return op;
}

// "...ii->...i" over [3, 5, 5]: the ellipsis is the batch axis of 3, the diagonal has 5.
TEST(EinsumEquation, EllipsisStandsForTheLeadingAxes) {
  const EinsumEquation equation = parse_einsum(einsum_op(), "...ii ->...i", {{3, 5, 5}});
  EXPECT_EQ(equation.result_shape(), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(equation.summed(), "");
}

// Without "->", NumPy's result: the labels used once, sorted: "ij,jk" gives "ik", j summed.
TEST(EinsumEquation, ImplicitResultIsTheLabelsUsedOnceSorted) {
  const EinsumEquation equation = parse_einsum(einsum_op(), "ij,jk", {{2, 3}, {3, 4}});
  EXPECT_EQ(equation.result, "ik");
  EXPECT_EQ(equation.summed(), "j");
  EXPECT_EQ(equation.result_shape(), (std::vector<int64_t>{2, 4}));
}

TEST(EinsumEquation, DifferentExtentsOfOneLabelAreRefused) {
  EXPECT_THAT(testing::error_text([] {
                parse_einsum(einsum_op(), "ij,jk", {{2, 3}, {4, 4}});
              }),
              HasSubstr("gives label 'j' the extents 3 and 4"));
}

TEST(EinsumEquation, OperandCountMustMatch) {
  EXPECT_THAT(testing::error_text([] {
                parse_einsum(einsum_op(), "ij,jk", {{2, 3}});
              }),
              HasSubstr("names 2 operands, the node has 1"));
}

}  // namespace
}  // namespace polyarch::passes
