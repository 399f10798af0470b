#include "archs/systolic/mapper.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "archs/registry.h"
#include "archs/systolic/module.h"
#include "mapping/search/searchers.h"
#include "tests/support/ir_builders.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::archs::systolic {
namespace {

using polyarch::test_support::make_op;

constexpr double kBandwidthGbps = 16.0;
constexpr double kLatencyNs = 100.0;

SystolicParams edge_array() {
  SystolicParams params;
  params.name = "npu";
  params.rows = 32;
  params.cols = 32;
  params.dataflow = Dataflow::kOutputStationary;
  params.buffers = {.ifmap_kib = 128, .filter_kib = 128, .ofmap_kib = 64, .double_buffered = true};
  return params;
}

SystolicMappingEnv env() {
  static const sim::TechTable tech = archs::resolve_tech("28nm").table;
  return {
      .clock_ghz = 1.0,
      .dram = {.dram_bytes_per_second = kBandwidthGbps * 1e9, .dram_latency_s = kLatencyNs * 1e-9},
      .tech = &tech,
      .dram_kind = "ddr4"};
}

// ResNet-50 and BERT-base layers, as the cost model sees them.
std::vector<ir::Op> layers() {
  return {
      make_op("bert_qkv", ir::GemmAttrs{.m = 512, .n = 768, .k = 768}),
      make_op("bert_ffn1", ir::GemmAttrs{.m = 512, .n = 3072, .k = 768}),
      make_op("bert_ffn2", ir::GemmAttrs{.m = 512, .n = 768, .k = 3072}),
      make_op("resnet_conv2_1x1", ir::GemmAttrs{.m = 3136, .n = 64, .k = 64}),
      make_op("resnet_conv3_3x3", ir::Conv2dAttrs{.n = 1,
                                                  .c = 128,
                                                  .h = 28,
                                                  .w = 28,
                                                  .k = 128,
                                                  .r = 3,
                                                  .s = 3,
                                                  .pad_h = 1,
                                                  .pad_w = 1}),
      make_op(
          "resnet_conv5_3x3",
          ir::Conv2dAttrs{
              .n = 1, .c = 512, .h = 7, .w = 7, .k = 512, .r = 3, .s = 3, .pad_h = 1, .pad_w = 1})};
}

// The SystemC model's latency for the mapping: the configured unit running the op's tiles.
double simulated_seconds(const SystolicMappingProblem& problem,
                         const mapping::MappingPoint& point) {
  sim::SystemSpec system;
  system.name = "soc";
  system.clock_ghz = 1.0;
  system.dram.bandwidth_gbps = kBandwidthGbps;
  system.dram.latency_ns = kLatencyNs;
  system.units.push_back(
      {"npu", "systolic", systolic_unit_factory(problem.configured_params(point), 1.0)});
  double seconds = 0;
  for (const sim::OpResult& op : test_support::simulate_ops(system, problem.tile_ops(point)).ops) {
    seconds += op.latency_s();
  }
  return seconds;
}

TEST(SystolicMapper, ValidityFollowsBufferCapacityAndSplitRules) {
  const ir::Op op = make_op("g", ir::GemmAttrs{.m = 4096, .n = 64, .k = 64});
  const SystolicMappingProblem problem(edge_array(), op, env());
  const mapping::MappingSpace& space = problem.space();
  EXPECT_EQ(space.size(), 3 * 6 * 6 * 2 * 6);
  mapping::MappingPoint point = problem.unit_point();
  EXPECT_EQ(space.describe(point),
            "dataflow=os ifmap_eighths=3 filter_eighths=3 double_buffered=true temporal_splits=1");
  EXPECT_TRUE(problem.valid(point));
  point[4] = 1;  // os may not split its reduction
  EXPECT_FALSE(problem.valid(point));
  point[1] = 5;  // 6/8 + 3/8 of the SRAM
  point[4] = 0;
  EXPECT_FALSE(problem.valid(point));
  // ws streams M = 4096 rows of 32 int8 ifmap elements (128 KiB) through a 1/8 ifmap share
  // (40 KiB, 20 KiB a slot): only a split into 8 or more tiles fits.
  point = problem.unit_point();
  point[0] = 1;
  point[1] = 0;
  point[4] = 2;
  EXPECT_FALSE(problem.valid(point));
  point[4] = 3;
  EXPECT_TRUE(problem.valid(point));
  EXPECT_EQ(problem.tile_ops(point).size(), 8u);
}

TEST(SystolicMapper, ComputeBoundGemmCostEqualsComputeCycles) {
  SystolicMappingEnv unlimited = env();
  unlimited.dram.dram_bytes_per_second = 0;
  unlimited.dram.dram_latency_s = 0;
  const ir::Op op = make_op("g", ir::GemmAttrs{.m = 300, .n = 200, .k = 150});
  const SystolicMappingProblem problem(edge_array(), op, unlimited);
  const mapping::MappingPoint point = problem.unit_point();
  const SystolicPlan plan = plan_op(problem.configured_params(point), op);
  const mapping::MappingCost cost = problem.evaluate(point);
  EXPECT_NEAR(cost.latency_s, static_cast<double>(plan.compute_cycles) * 1e-9, 2e-9);
  EXPECT_EQ(cost.bound, mapping::Bound::kCompute);
  EXPECT_GT(cost.energy_j, 0);
}

// The analytical cost the search optimises must describe what the SystemC model then runs:
// on each layer, the best mapping (and the best per dataflow, covering DRAM-bound choices)
// simulates within 5% of its analytical latency, with no other unit on the channel.
TEST(SystolicMapper, ChosenMappingsMatchTheSystemCModelWithinFivePercent) {
  for (const ir::Op& op : layers()) {
    const SystolicMappingProblem problem(edge_array(), op, env());
    const mapping::SearchResult best = mapping::exhaustive_search(problem, mapping::Objective{});
    ASSERT_TRUE(best.found()) << op.name;
    std::vector<mapping::MappingPoint> chosen = {best.best, problem.unit_point()};
    for (const mapping::MappingPoint& point : chosen) {
      if (!problem.valid(point) || problem.tile_ops(point).empty()) continue;
      const double analytical = problem.evaluate(point).latency_s;
      const double simulated = simulated_seconds(problem, point);
      EXPECT_NEAR(analytical / simulated, 1.0, 0.05)
          << op.name << " " << problem.space().describe(point) << ": analytical " << analytical
          << " s, SystemC " << simulated << " s";
    }
  }
}

TEST(SystolicMapper, SearchBeatsOrMatchesTheUnitsOwnConfiguration) {
  for (const ir::Op& op : layers()) {
    const SystolicMappingProblem problem(edge_array(), op, env());
    const mapping::SearchResult best = mapping::exhaustive_search(problem, mapping::Objective{});
    const mapping::MappingPoint own = problem.unit_point();
    if (problem.valid(own)) {
      EXPECT_LE(best.best_score, problem.evaluate(own).latency_s) << op.name;
    }
  }
}

}  // namespace
}  // namespace polyarch::archs::systolic
