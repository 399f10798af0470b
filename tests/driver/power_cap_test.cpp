// A power cap on the shipped mixed SoC (systolic + vector simd + PIM) running BERT-base: the
// scheduler's plan stays under the cap, costs time against the uncapped plan, and the report
// carries both plans and the simulated peak. Without a cap nothing changes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"

namespace polyarch::driver {
namespace {

archs::SocConfig mixed_soc(std::optional<double> cap_w) {
  archs::SocConfig soc =
      archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/mixed_soc.yaml");
  soc.power_cap_w = cap_w;
  return soc;
}

ir::Graph bert_base() {
  return frontend::load_workload(std::string(POLYARCH_SOURCE_DIR) +
                                 "/workloads/models/bert_base.yaml");
}

// Independent GEMMs (systolic) and softmaxes (vector unit): a layer list's ops share no tensors,
// so uncapped the two units run side by side and their powers add up.
ir::Graph side_by_side() {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "polyarch_power_cap_side_by_side.yaml";
  std::ofstream(file) << "layers:\n"
                         "  - {name: proj0, op: gemm, m: 512, n: 768, k: 768}\n"
                         "  - {name: probs0, op: softmax, rows: 4096, cols: 512}\n"
                         "  - {name: proj1, op: gemm, m: 512, n: 768, k: 768}\n"
                         "  - {name: probs1, op: softmax, rows: 4096, cols: 512}\n";
  ir::Graph graph = frontend::load_workload(file);
  std::filesystem::remove(file);
  return graph;
}

TEST(PowerCap, PlanStaysUnderTheCapAndTakesLongerThanWithout) {
  const ir::Graph graph = side_by_side();
  // A cap far above anything: the plan is the uncapped one and the report says so.
  const sim::RunResult free = simulate_workload(mixed_soc(1e6), graph);
  ASSERT_TRUE(free.power_cap);
  const sim::PowerCapTrace& loose = *free.power_cap;
  EXPECT_DOUBLE_EQ(loose.planned_peak_w, loose.uncapped_planned_peak_w);
  EXPECT_DOUBLE_EQ(loose.planned_makespan_s, loose.uncapped_planned_makespan_s);
  EXPECT_EQ(loose.serialised, 0);
  EXPECT_GT(loose.static_w, 0.0);
  ASSERT_TRUE(loose.measured_peak_w);
  std::printf("[ power cap ] uncapped: planned peak %.2f W, largest op %.2f W, static %.2f W\n",
              loose.uncapped_planned_peak_w, loose.max_op_w, loose.static_w);
  // Halfway between the largest single op (the lowest peak any schedule can reach) and the
  // uncapped peak, which overlapping ops made.
  ASSERT_LT(loose.max_op_w, loose.uncapped_planned_peak_w);
  const double cap = loose.max_op_w + 0.5 * (loose.uncapped_planned_peak_w - loose.max_op_w);
  const sim::RunResult capped = simulate_workload(mixed_soc(cap), graph);
  ASSERT_TRUE(capped.power_cap);
  const sim::PowerCapTrace& tight = *capped.power_cap;
  std::printf("[ power cap ] cap %.2f W: planned peak %.2f W, planned %.2f us (uncapped %.2f us), "
              "simulated %.2f us (uncapped %.2f us), %d dependencies added, simulated peak "
              "%.2f W (uncapped %.2f W)\n",
              cap, tight.planned_peak_w, tight.planned_makespan_s * 1e6,
              tight.uncapped_planned_makespan_s * 1e6, capped.summary.latency_s * 1e6,
              free.summary.latency_s * 1e6, tight.serialised,
              tight.measured_peak_w.value_or(0.0), *loose.measured_peak_w);
  EXPECT_EQ(tight.ops_over_cap, 0);
  EXPECT_LE(tight.planned_peak_w, cap * (1 + 1e-9));
  EXPECT_GT(tight.serialised, 0);
  EXPECT_GT(tight.planned_makespan_s, tight.uncapped_planned_makespan_s);
  // The simulator keeps the order the cap added: the run takes longer, and draws less at peak.
  EXPECT_GT(capped.summary.latency_s, free.summary.latency_s);
  ASSERT_TRUE(tight.measured_peak_w);
  EXPECT_LT(*tight.measured_peak_w, *loose.measured_peak_w);
}

TEST(PowerCap, WithoutACapTheRunHasNoPowerCapSection) {
  const sim::RunResult result = simulate_workload(mixed_soc(std::nullopt), bert_base());
  EXPECT_FALSE(result.power_cap);
}

TEST(PowerCap, ArchKeyIsParsedAndValidated) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "polyarch_power_cap_key";
  std::filesystem::create_directories(dir);
  const std::string base = std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/mixed_soc.yaml";
  std::ofstream(dir / "capped.yaml") << "base: " << base << "\npower_cap_w: 250\n";
  std::ofstream(dir / "bad.yaml") << "base: " << base << "\npower_cap_w: -5\n";
  EXPECT_EQ(archs::load_soc_config(dir / "capped.yaml").power_cap_w, 250.0);
  EXPECT_EQ(archs::load_soc_config(dir / "capped.yaml").describe()["power_cap_w"], 250.0);
  try {
    archs::load_soc_config(dir / "bad.yaml");
    ADD_FAILURE() << "a negative cap was accepted";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("power_cap_w"), std::string::npos) << error.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace polyarch::driver
