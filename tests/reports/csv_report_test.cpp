#include "reports/csv_report.h"

#include <gtest/gtest.h>

#include "reports/csv_writer.h"

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

TEST(CsvReport, EveryRowHasTheHeadersFieldsAndNumbersRoundTrip) {
  sim::RunResult result;
  sim::OpResult op;
  op.name = "layer\nwith newline";
  op.kind = "gemm";
  op.unit = "mxu";
  op.total_cycles = 3;
  op.unit_clock_ghz = 0.94;
  op.utilization = 1.0 / 3.0;
  op.energy_j = 1.25e-7;
  op.bound = "dram";
  result.ops.push_back(op);
  op.energy_j.reset();  // a kind without an energy model: an empty field
  result.ops.push_back(op);
  auto records = parse_csv(ops_csv(result));
  ASSERT_EQ(records.size(), 3u);
  const std::vector<std::string>& header = records[0];
  auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  for (const auto& record : records) EXPECT_EQ(record.size(), header.size());
  EXPECT_EQ(records[1][column("name")], "layer\nwith newline");
  EXPECT_EQ(std::stod(records[1][column("compute_utilization")]), 1.0 / 3.0);
  EXPECT_EQ(std::stod(records[1][column("latency_s")]), op.latency_s());
  EXPECT_EQ(std::stod(records[1][column("energy_j")]), 1.25e-7);
  EXPECT_EQ(records[2][column("energy_j")], "");
  EXPECT_EQ(records[1][column("bound")], "dram");
}

}  // namespace
}  // namespace polyarch::reports
