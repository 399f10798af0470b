// Transfers between units and layer pipelining on the shipped mixed SoC (systolic + vector simd
// + PIM): what the schedule trace and report.json say about them.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"
#include "driver/schedule_plan.h"
#include "reports/json_report.h"

namespace polyarch::driver {
namespace {

archs::SocConfig mixed_soc() {
  return archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/mixed_soc.yaml");
}

ir::Graph bert_base() {
  return frontend::load_workload(std::string(POLYARCH_SOURCE_DIR) +
                                 "/workloads/models/bert_base.yaml");
}

TEST(PipelinedSchedule, MicroBatchesOfBertOnTheMixedSocRaiseThroughput) {
  const ir::Graph graph = bert_base();
  const int batches = 8;
  const sim::RunResult result = simulate_workload(mixed_soc(), graph, 1e-6, batches);
  ASSERT_TRUE(result.schedule);
  ASSERT_TRUE(result.schedule->pipeline);
  const sim::PipelineTrace& pipeline = *result.schedule->pipeline;
  std::printf(
      "[ pipeline  ] bert_base x%d on mixed SoC: %.3f ms pipelined, %.3f ms one after "
      "another (%.2fx); %.1f/s vs %.1f/s; mean latency %.3f ms vs %.3f ms\n",
      batches, pipeline.makespan_s * 1e3, pipeline.unpipelined_makespan_s * 1e3,
      pipeline.unpipelined_makespan_s / pipeline.makespan_s, pipeline.throughput_per_s,
      pipeline.unpipelined_throughput_per_s, pipeline.mean_latency_s * 1e3,
      pipeline.unpipelined_latency_s * 1e3);
  EXPECT_EQ(pipeline.micro_batches, batches);
  EXPECT_LT(pipeline.makespan_s, pipeline.unpipelined_makespan_s);
  EXPECT_GT(pipeline.throughput_per_s, pipeline.unpipelined_throughput_per_s);
  EXPECT_GT(pipeline.steady_state_throughput_per_s, pipeline.unpipelined_throughput_per_s);
  // Every op ran once per micro-batch. The pipeline trades some latency for throughput: on
  // average an input of the batch waits about as long as with inputs one after another.
  EXPECT_EQ(result.ops.size(), graph.topological_ops().size() * batches);
  EXPECT_GT(pipeline.mean_latency_s, 0.0);
  EXPECT_LT(pipeline.mean_latency_s, 1.1 * pipeline.unpipelined_latency_s);
  EXPECT_LT(pipeline.planned_makespan_s, pipeline.planned_unpipelined_makespan_s);
}

TEST(PipelinedSchedule, TheReportCarriesTransfersBaselinesAndThePipeline) {
  const ir::Graph graph = bert_base();
  const sim::RunResult result = simulate_workload(mixed_soc(), graph, 1e-6, 2);
  const nlohmann::ordered_json report = reports::report_json(result);
  ASSERT_TRUE(report.contains("schedule"));
  const auto& schedule = report["schedule"];
  EXPECT_EQ(schedule["scheduler"], "heft");
  EXPECT_EQ(schedule["transfers"]["path"], "shared_dram");
  EXPECT_GT(schedule["transfers"]["count"].get<int64_t>(), 0);
  EXPECT_GT(schedule["transfers"]["bytes"].get<int64_t>(), 0);
  EXPECT_DOUBLE_EQ(schedule["transfers"]["copy_seconds"].get<double>(), 0.0);
  // Only the vector unit runs every op of BERT; the schedule beats it.
  ASSERT_FALSE(schedule["single_unit_baselines"].empty());
  for (const auto& baseline : schedule["single_unit_baselines"]) {
    EXPECT_GT(baseline["speedup"].get<double>(), 1.0) << baseline["unit"];
  }
  EXPECT_EQ(schedule["pipeline"]["micro_batches"], 2);
  EXPECT_GT(schedule["pipeline"]["speedup"].get<double>(), 1.0);
}

TEST(PipelinedSchedule, CopyingBetweenUnitsCostsTimeSharedDramDoesNot) {
  const ir::Graph graph = bert_base();
  const archs::SocConfig shared = mixed_soc();
  archs::SocConfig copying = mixed_soc();
  copying.interconnect.transfers = "copy";
  const PlannedProgram over_dram = plan_program(shared, graph);
  const PlannedProgram copied = plan_program(copying, graph);
  ASSERT_TRUE(over_dram.schedule && copied.schedule);
  std::printf(
      "[ transfers ] bert_base on mixed SoC, planned: %.3f ms shared DRAM (%.3f ms free "
      "transfers, %lld transfers, %.2f MB), %.3f ms copying (%lld transfers, %.2f MB, "
      "%.3f ms copying)\n",
      over_dram.schedule->planned_makespan_s * 1e3,
      over_dram.schedule->planned_makespan_without_transfers_s * 1e3,
      static_cast<long long>(over_dram.schedule->transfers),
      static_cast<double>(over_dram.schedule->transfer_bytes) / 1e6,
      copied.schedule->planned_makespan_s * 1e3, static_cast<long long>(copied.schedule->transfers),
      static_cast<double>(copied.schedule->transfer_bytes) / 1e6,
      copied.schedule->transfer_copy_s * 1e3);
  EXPECT_DOUBLE_EQ(over_dram.schedule->transfer_copy_s, 0.0);
  EXPECT_GT(copied.schedule->transfer_copy_s, 0.0);
  EXPECT_GE(copied.schedule->planned_makespan_s,
            copied.schedule->planned_makespan_without_transfers_s);
  // The simulator waits the copies the plan charged.
  const double shared_s = simulate_workload(shared, graph).summary.latency_s;
  const double copying_s = simulate_workload(copying, graph).summary.latency_s;
  EXPECT_GT(copying_s, shared_s);
}

TEST(PipelinedSchedule, InterconnectTransfersKeyIsParsedAndValidated) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "polyarch_transfers_key";
  std::filesystem::create_directories(dir);
  const std::string base = std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/mixed_soc.yaml";
  std::ofstream(dir / "copy.yaml")
      << "base: " << base << "\ninterconnect: {latency_cycles: 8, transfers: copy}\n";
  std::ofstream(dir / "bad.yaml") << "base: " << base
                                  << "\ninterconnect: {latency_cycles: 8, transfers: teleport}\n";
  const archs::SocConfig copying = archs::load_soc_config(dir / "copy.yaml");
  EXPECT_EQ(copying.interconnect.transfers, "copy");
  EXPECT_EQ(copying.describe()["interconnect"]["transfers"], "copy");
  EXPECT_EQ(transfer_model(copying).path, mapping::TransferPath::kCopy);
  EXPECT_DOUBLE_EQ(transfer_model(copying).hand_over_s, 8e-9);
  EXPECT_GT(transfer_model(copying).bytes_per_second, 0.0);
  EXPECT_EQ(mixed_soc().interconnect.transfers, "shared_dram");
  try {
    archs::load_soc_config(dir / "bad.yaml");
    ADD_FAILURE() << "an unknown transfer path was accepted";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("transfers"), std::string::npos) << error.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace polyarch::driver
