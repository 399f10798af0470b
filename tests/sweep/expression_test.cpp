#include "sweep/expression.h"

#include <gtest/gtest.h>

#include <map>

namespace polyarch::sweep {
namespace {

double evaluate(const std::string& text, const std::map<std::string, double>& values = {}) {
  Expression expression = Expression::parse(text, {"s.yaml", 3, 5, "constraints[0]"});
  return expression.evaluate([&](const std::string& name) { return values.at(name); });
}

TEST(SweepExpression, ArithmeticFollowsPrecedenceAndParentheses) {
  EXPECT_DOUBLE_EQ(evaluate("1 + 2 * 3"), 7.0);
  EXPECT_DOUBLE_EQ(evaluate("(1 + 2) * 3"), 9.0);
  EXPECT_DOUBLE_EQ(evaluate("8 / 4 / 2"), 1.0);
  EXPECT_DOUBLE_EQ(evaluate("10 - 4 - 3"), 3.0);
  EXPECT_DOUBLE_EQ(evaluate("-2 * -3"), 6.0);
  EXPECT_DOUBLE_EQ(evaluate("1.5e3 + .5"), 1500.5);
}

TEST(SweepExpression, ComparisonsYieldOneOrZero) {
  std::map<std::string, double> values = {{"rows", 256}, {"cols", 256}};
  EXPECT_EQ(evaluate("rows * cols <= 65536", values), 1.0);
  EXPECT_EQ(evaluate("rows * cols < 65536", values), 0.0);
  EXPECT_EQ(evaluate("rows == cols", values), 1.0);
  EXPECT_EQ(evaluate("rows != cols", values), 0.0);
  EXPECT_EQ(evaluate("rows >= 2 * cols", values), 0.0);
  EXPECT_EQ(evaluate("rows > cols / 2", values), 1.0);
}

TEST(SweepExpression, IdentifiersMayBeKeyPathsAndAreListedOnce) {
  Expression expression =
      Expression::parse("memory.dram.bandwidth_gbps / rows >= rows", {"s.yaml", 1, 1, ""});
  EXPECT_TRUE(expression.is_comparison());
  EXPECT_EQ(expression.identifiers(),
            (std::vector<std::string>{"memory.dram.bandwidth_gbps", "rows"}));
  EXPECT_FALSE(Expression::parse("rows * 2", {}).is_comparison());
}

TEST(SweepExpression, SyntaxErrorsNameFileLineAndColumnInsideTheText) {
  try {
    Expression::parse("rows * (cols <= 4", {"s.yaml", 3, 5, "constraints[0]"});
    FAIL() << "expected a syntax error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.where().file, "s.yaml");
    EXPECT_EQ(error.where().line, 3);
    EXPECT_NE(error.message().find("expected ')'"), std::string::npos) << error.message();
  }
  EXPECT_THROW(Expression::parse("rows *", {}), Error);
  EXPECT_THROW(Expression::parse("rows $ 2", {}), Error);
  EXPECT_THROW(Expression::parse("rows <= 2 3", {}), Error);
  EXPECT_THROW(Expression::parse("", {}), Error);
}

TEST(SweepExpression, DivisionByZeroIsAnError) { EXPECT_THROW(evaluate("1 / (2 - 2)"), Error); }

}  // namespace
}  // namespace polyarch::sweep
