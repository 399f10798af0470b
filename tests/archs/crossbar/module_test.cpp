// The crossbar's SystemC model against its closed-form estimate in four regimes built so that
// one resource must bound (derived by hand below), the overlap double buffering buys, and the
// steady-state fast-forward against wave-by-wave simulation.
#include "archs/crossbar/module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/estimate.h"
#include "tests/archs/crossbar/small_unit.h"
#include "tests/support/ir_builders.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::archs::crossbar {
namespace {

using test_support::make_op;

using test_units::small_unit;

constexpr double kLatencyNs = 100;

struct XbarRun {
  sim::OpResult simulated;
  CrossbarEstimate estimate;
  double simulated_ns = 0;
};

XbarRun run(const CrossbarParams& params, const ir::Op& op, double bandwidth_gbps,
            CrossbarUnitOptions options = {}) {
  sim::SystemSpec system;
  system.name = "soc";
  system.clock_ghz = 1.0;
  system.dram.bandwidth_gbps = bandwidth_gbps;
  system.dram.latency_ns = kLatencyNs;
  system.units.push_back(
      {params.name, "crossbar", crossbar_unit_factory(params, 1.0, nullptr, options)});
  XbarRun result;
  result.simulated = test_support::simulate_ops(system, {op}).ops.front();
  result.simulated_ns = result.simulated.latency_s() * 1e9;
  const CrossbarPlan plan = plan_op(params, op, options.replicas);
  result.estimate = estimate_op(params, plan, {bandwidth_gbps * 1e9, kLatencyNs * 1e-9});
  return result;
}

// 512 input vectors through a 64 x 16 weight: one array per copy, 8 copies, 64 waves. Inputs
// 512 x 64 x 2 B = 64 KiB, outputs 512 x 16 x 2 B = 16 KiB.
ir::Op small_gemm() { return make_op("fc", ir::GemmAttrs{.m = 512, .n = 16, .k = 64}); }

// The estimate's stated tolerance against the simulation on one op.
constexpr double kTolerance = 0.05;

TEST(CrossbarModule, ReadBoundWhenReadsOutlastConversionsAndTransfers) {
  const XbarRun result = run(small_unit(), small_gemm(), 100.0);
  // 64 waves x 8 slices x 100 ns reads = 51.2 us; conversions 64 ns per slice (32.8 us);
  // 80 KiB at 100 GB/s = 0.82 us.
  EXPECT_EQ(result.simulated.bound, "compute");
  EXPECT_EQ(result.estimate.bound, mapping::Bound::kCompute);
  // Arrays: 51.2 us + the first conversion and add (69 ns); plus the first wave's load and
  // the last wave's write with their latencies (about 0.21 us).
  EXPECT_NEAR(result.simulated_ns, 51200.0 + 69.0 + 213.0, 30.0);
  EXPECT_NEAR(result.estimate.seconds * 1e9, result.simulated_ns, kTolerance * result.simulated_ns);
}

TEST(CrossbarModule, ASignedInputTakesTwoSignMagnitudePhasesOfSevenSlices) {
  ir::Op signed_gemm = small_gemm();
  signed_gemm.signed_input = true;
  const XbarRun result = run(small_unit(), signed_gemm, 100.0);
  // 8-bit signed inputs: magnitudes of 7 bits, positive then negative phase: 14 one-bit slices
  // per vector. 64 waves x 14 slices x 100 ns = 89.6 us, then as the unsigned case above.
  EXPECT_EQ(plan_op(small_unit(), signed_gemm).input_slices, 14);
  EXPECT_EQ(result.simulated.mapping.at("input_slices"), 14);
  EXPECT_NEAR(result.simulated_ns, 89600.0 + 69.0 + 213.0, 30.0);
  EXPECT_NEAR(result.estimate.seconds * 1e9, result.simulated_ns, kTolerance * result.simulated_ns);
  // Every slice drives the rows and converts the columns: 14 / 8 of the unsigned counts.
  const CrossbarPlan unsigned_plan = plan_op(small_unit(), small_gemm());
  const CrossbarPlan signed_plan = plan_op(small_unit(), signed_gemm);
  EXPECT_EQ(signed_plan.activity.adc_conversions * 8, unsigned_plan.activity.adc_conversions * 14);
  EXPECT_EQ(signed_plan.activity.dac_drives * 8, unsigned_plan.activity.dac_drives * 14);
}

TEST(CrossbarModule, AdcBoundWhenATilesArraysShareOneConverter) {
  CrossbarParams params = small_unit();
  params.adc.per_tile = 1;  // four arrays' 64 ns groups on one ADC: 256 ns per slice
  const XbarRun result = run(params, small_gemm(), 100.0);
  EXPECT_EQ(result.simulated.bound, "adc");
  EXPECT_EQ(result.estimate.bound, mapping::Bound::kAdc);
  // The first read, then 64 waves x 8 slices x 256 ns, the add, and the DRAM edges.
  EXPECT_NEAR(result.simulated_ns, 100.0 + 131072.0 + 5.0 + 213.0, 30.0);
  EXPECT_NEAR(result.estimate.seconds * 1e9, result.simulated_ns, kTolerance * result.simulated_ns);
}

TEST(CrossbarModule, DramBoundWhenTheChannelIsSlowerThanTheArrays) {
  const XbarRun result = run(small_unit(), small_gemm(), 0.5);
  // 80 KiB at 0.5 GB/s = 163.8 us against 51.2 us of reads.
  EXPECT_EQ(result.simulated.bound, "dram");
  EXPECT_EQ(result.estimate.bound, mapping::Bound::kDram);
  EXPECT_GT(result.simulated_ns, 163840.0);
  // At most one wave's compute and the two latencies beyond the channel's time.
  EXPECT_LT(result.simulated_ns, 163840.0 + 800.0 + 69.0 + 2 * kLatencyNs + 100.0);
  EXPECT_NEAR(result.estimate.seconds * 1e9, result.simulated_ns, kTolerance * result.simulated_ns);
}

TEST(CrossbarModule, ReprogrammingBoundWhenWeightsDoNotFitAndRowsWriteSlowly) {
  CrossbarParams params = small_unit();
  params.cell.write_ns_per_row = 1000;
  // A 512 x 64 weight: 8 row blocks x 4 column blocks = 32 arrays on 8: four passes, each
  // writing 64 rows at 1 us (64 us) and streaming 4 vectors (4 x 8 x 100 ns = 3.2 us).
  const ir::Op op = make_op("big", ir::GemmAttrs{.m = 4, .n = 64, .k = 512});
  const XbarRun result = run(params, op, 100.0);
  EXPECT_EQ(result.simulated.bound, "reprogramming");
  EXPECT_EQ(result.estimate.bound, mapping::Bound::kReprogramming);
  EXPECT_GT(result.simulated_ns, 4 * (64000.0 + 3200.0));
  EXPECT_LT(result.simulated_ns, 4 * (64000.0 + 3200.0 + 69.0) + 1000.0);
  // The weights (64 KiB) and the inputs of every pass come from DRAM.
  EXPECT_EQ(result.simulated.dram_bytes_read, 512 * 64 * 2 + 4 * (4 * 512 * 2));
  EXPECT_NEAR(result.estimate.seconds * 1e9, result.simulated_ns, kTolerance * result.simulated_ns);
}

TEST(CrossbarModule, DoubleBufferingOverlapsTransfersWithTheArrays) {
  // 80 KiB at 1.6 GB/s = 51.2 us: as long as the arrays' 51.27 us. Without overlap the op
  // would take their sum plus two latencies, 102.67 us. With two buffer slots a wave's load
  // (0.64 us) is issued when the wave two before it has computed and queues behind that wave's
  // write (0.16 us), so consecutive waves are at least (0.8 + 0.8 + 0.1) / 2 = 0.85 us apart:
  // 64 x 0.85 us, plus the fill, the first load, the last write and two latencies.
  const XbarRun result = run(small_unit(), small_gemm(), 1.6);
  const double arrays_ns = 51200.0 + 69.0;
  const double dram_ns = 81920.0 / 1.6;
  const double no_overlap_ns = arrays_ns + dram_ns + 2 * kLatencyNs;
  const double paced_ns = 64 * 850.0 + 69.0 + 640.0 + 160.0 + 2 * kLatencyNs;
  EXPECT_GT(result.simulated_ns, std::max(arrays_ns, dram_ns));
  EXPECT_NEAR(result.simulated_ns, paced_ns, 0.01 * paced_ns);
  EXPECT_LT(result.simulated_ns, no_overlap_ns - 0.9 * std::min(arrays_ns, dram_ns));
  EXPECT_NEAR(result.estimate.seconds * 1e9, result.simulated_ns, kTolerance * result.simulated_ns);
}

TEST(CrossbarModule, FastForwardMatchesWaveByWaveSimulation) {
  CrossbarParams params = small_unit();
  params.cell.write_ns_per_row = 1000;
  const ir::Op passes = make_op("big", ir::GemmAttrs{.m = 40, .n = 64, .k = 512});
  for (const ir::Op& op : {small_gemm(), passes}) {
    for (double bandwidth : {100.0, 1.6}) {
      const XbarRun fast = run(params, op, bandwidth);
      const XbarRun slow =
          run(params, op, bandwidth, {.fast_forward = false, .replicas = std::nullopt});
      EXPECT_EQ(fast.simulated.total_cycles, slow.simulated.total_cycles) << op.name;
      EXPECT_EQ(fast.simulated.dram_bytes_read, slow.simulated.dram_bytes_read) << op.name;
      EXPECT_GT(fast.simulated.mapping["simulated"]["tiles_skipped"].get<int64_t>(), 0) << op.name;
    }
  }
}

TEST(CrossbarModule, FewerReplicasTakeLongerInSimulation) {
  // One copy streams all 512 vectors: 8 times the waves of eight copies.
  const XbarRun one = run(small_unit(), small_gemm(), 100.0, {.replicas = 1});
  const XbarRun eight = run(small_unit(), small_gemm(), 100.0, {.replicas = 8});
  EXPECT_NEAR(one.simulated_ns, 512 * 800.0 + 69.0 + 200.0, 60.0);
  EXPECT_LT(eight.simulated_ns * 7.5, one.simulated_ns);
}

TEST(CrossbarModule, ASlowBusSetsTheWavesInSimulationAsInTheEstimate) {
  // The small unit with a 4-bit bus at 1 GHz (untimed buffers): a wave of 8 copies moves 8 x
  // (64 + 16) x 2 B = 10240 bits, 2560 ns on the bus, where the arrays take 800 ns.
  // (Alone, the unit would keep only 3 copies: on a bus-bound op more copies save nothing and
  // make the first wave's inputs longer.)
  CrossbarParams params = small_unit();
  params.bus = {4, 1.0, 0.0};
  const XbarRun result = run(params, small_gemm(), 100.0, {.replicas = 8});
  // 64 waves x 2560 ns, plus the first inputs (8192 bits: 2048 ns) and the last outputs (512
  // ns) on the bus, the fill and the DRAM's first load and last write.
  EXPECT_EQ(result.simulated.bound, "noc");
  EXPECT_NEAR(result.simulated_ns, 64 * 2560.0 + 2048.0 + 512.0, 400.0);
  EXPECT_NEAR(result.estimate.seconds * 1e9, result.simulated_ns, kTolerance * result.simulated_ns);
  EXPECT_NEAR(result.simulated.mapping["simulated"]["bus_ns"].get<double>(), 64 * 2560.0, 1e-6);
}

TEST(CrossbarModule, TheProgramsOpsShareTheArraysInSimulation) {
  // Two copies of one weight each need 1 array of the 8: each op keeps 4 copies (4 arrays),
  // not the 8 it would take alone. Rows written in 1 us make writing each op's weights at its
  // run (64 us) slower than sharing the arrays.
  CrossbarParams params = small_unit();
  params.cell.write_ns_per_row = 1000;
  sim::SystemSpec system;
  system.name = "soc";
  system.clock_ghz = 1.0;
  system.dram.bandwidth_gbps = 100.0;
  system.dram.latency_ns = kLatencyNs;
  system.units.push_back({"xbar", "crossbar", crossbar_unit_factory(params, 1.0)});
  ir::Op first = small_gemm();
  ir::Op second = small_gemm();
  second.name = "fc2";
  const sim::RunResult both = test_support::simulate_ops(system, {first, second});
  for (const sim::OpResult& op : both.ops) {
    EXPECT_EQ(op.mapping.at("arrays_allocated"), 4) << op.name;
    EXPECT_EQ(op.mapping.at("replicas"), 4) << op.name;
  }
  const sim::RunResult alone = test_support::simulate_ops(system, {first});
  EXPECT_EQ(alone.ops.front().mapping.at("replicas"), 8);
}

}  // namespace
}  // namespace polyarch::archs::crossbar
