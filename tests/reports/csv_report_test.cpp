#include "reports/csv_report.h"

#include <gtest/gtest.h>

namespace polyarch::reports {
namespace {

TEST(CsvReport, OneRowPerOpAndQuotesNamesWithCommas) {
  sim::RunResult result;
  sim::OpResult op;
  op.name = "a,\"b\"";
  op.kind = "gemm";
  op.unit = "mxu";
  op.compute_cycles = 7;
  op.sram["ifmap"] = {5, 0};
  result.ops.push_back(op);
  std::string csv = ops_csv(result);
  EXPECT_EQ(csv.rfind("name,kind,unit,", 0), 0u);
  EXPECT_NE(csv.find("\"a,\"\"b\"\"\",gemm,mxu,"), std::string::npos) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2);
}

}  // namespace
}  // namespace polyarch::reports
