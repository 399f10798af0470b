// A mimd core's DRAM bandwidth is bounded by the line misses it keeps in flight (Little's law:
// outstanding_lines x line_bytes / memory latency), in the estimate and in the simulation; the
// socket's DRAM bandwidth still caps the sum over the cores. With a write-allocate cache every
// stored line is read first. The expected rates are derived by
// hand from the arch text below, not from the model's functions.
#include <gtest/gtest.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "tests/archs/mimd/run_mimd_op.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::mimd {
namespace {

using test_support::make_op;

// 1 GHz, so a cycle is a nanosecond and bytes per cycle are GB/s. A core keeps 16 lines of 64 B
// in flight against a 200 ns memory latency: 16 x 64 / 200 = 5.12 GB/s per core.
constexpr double kCoreBound = 16.0 * 64.0 / 200.0;

std::string arch_text(int cores, double dram_gbps, const std::string& core_extra) {
  return "name: mlp\nclock_ghz: 1.0\nmemory: {dram: {bandwidth_gbps: " + std::to_string(dram_gbps) +
         ", latency_ns: 100}}\n"
         "units:\n  - name: cpu\n    kind: mimd\n    count: " +
         std::to_string(cores) + "\n    core: {vector_lanes: 16, local_kib: 1024" + core_extra +
         "}\n    noc: {topology: crossbar, link_bytes_per_cycle: 64, memory_ports: 1}\n";
}

SocConfig soc_of(const std::string& text) {
  return parse_soc_config(parse_config_text(text, "mlp.yaml"));
}

MimdParams params_of(const SocConfig& soc) { return mimd_params_of(soc); }

sim::OpResult run_one(const SocConfig& soc, const ir::Op& op) {
  return run_mimd_op(soc, mimd_params_of(soc), op);
}

// c = a + b over 2^24 fp32 elements: 3 x 4 bytes per element cross DRAM.
const ir::Op kStream = make_op("add", ir::ElementwiseAttrs{"add", 1 << 24, 2});
constexpr double kStreamBytes = 3.0 * 4.0 * (1 << 24);

const std::string kWindow = ", outstanding_lines: 16, line_bytes: 64, memory_latency_ns: 200";

TEST(MimdMemoryLevelParallelism, BandwidthPerCoreIsLinesTimesLineBytesOverLatency) {
  const MimdParams params = params_of(soc_of(arch_text(1, 1000, kWindow)));
  EXPECT_DOUBLE_EQ(params.core_miss_bytes_per_cycle(1.0, 100), kCoreBound);
  // At 2 GHz the same 200 ns is 400 cycles: half the bytes per cycle, the same bytes per second.
  EXPECT_DOUBLE_EQ(params.core_miss_bytes_per_cycle(2.0, 200), kCoreBound / 2.0);
}

TEST(MimdMemoryLevelParallelism, WithoutACoreLatencyTheSocsDramLatencyIsUsed) {
  const MimdParams params =
      params_of(soc_of(arch_text(1, 1000, ", outstanding_lines: 16, line_bytes: 64")));
  EXPECT_DOUBLE_EQ(params.core_miss_bytes_per_cycle(1.0, 100), 16.0 * 64.0 / 100.0);
}

TEST(MimdMemoryLevelParallelism, NoOutstandingLinesMeansNoBound) {
  const MimdParams params = params_of(soc_of(arch_text(1, 1000, "")));
  EXPECT_EQ(params.core.outstanding_lines, 0);
  EXPECT_DOUBLE_EQ(params.core_miss_bytes_per_cycle(1.0, 100), 0.0);
}

// One core streaming alone behind a DRAM of 1000 GB/s: the misses it keeps in flight pace it,
// at N x 64 / L and no faster, in the simulation and in the estimate.
TEST(MimdMemoryLevelParallelism, OneCoreStreamsAtItsLittlesLawBound) {
  const sim::OpResult result = run_one(soc_of(arch_text(1, 1000, kWindow)), kStream);
  const double simulated = kStreamBytes / static_cast<double>(result.total_cycles);
  const double estimated = kStreamBytes / result.mapping["estimate_cycles"].get<double>();
  for (const double rate : {simulated, estimated}) {
    EXPECT_LE(rate, kCoreBound * (1 + 1e-9));
    EXPECT_GE(rate, 0.98 * kCoreBound);  // the first load's latency and the barrier on top
  }
  EXPECT_EQ(result.bound, "latency");
}

// The same core with no bound streams at the DRAM's bandwidth instead: the window is what
// slowed it above.
TEST(MimdMemoryLevelParallelism, AnUnboundedCoreStreamsAtTheDramBandwidth) {
  const sim::OpResult result = run_one(soc_of(arch_text(1, 100, "")), kStream);
  const double rate = kStreamBytes / static_cast<double>(result.total_cycles);
  EXPECT_GT(rate, 10.0 * kCoreBound);
  EXPECT_LE(rate, 100.0 * (1 + 1e-9));
}

// Two cores, each bounded at 5.12 GB/s: with a 100 GB/s DRAM they stream at the sum, 10.24 GB/s;
// with an 8 GB/s DRAM the DRAM caps the sum.
TEST(MimdMemoryLevelParallelism, TwoCoresAddTheirBoundsUpToTheDramBandwidth) {
  const sim::OpResult wide = run_one(soc_of(arch_text(2, 100, kWindow)), kStream);
  const double wide_rate = kStreamBytes / static_cast<double>(wide.total_cycles);
  EXPECT_LE(wide_rate, 2.0 * kCoreBound * (1 + 1e-9));
  EXPECT_GE(wide_rate, 0.97 * 2.0 * kCoreBound);

  const sim::OpResult narrow = run_one(soc_of(arch_text(2, 8, kWindow)), kStream);
  const double narrow_rate = kStreamBytes / static_cast<double>(narrow.total_cycles);
  EXPECT_LE(narrow_rate, 8.0 * (1 + 1e-9));
  EXPECT_GE(narrow_rate, 0.95 * 8.0);
  EXPECT_EQ(narrow.bound, "dram");
  const double estimated = kStreamBytes / narrow.mapping["estimate_cycles"].get<double>();
  EXPECT_NEAR(estimated, narrow_rate, 0.05 * narrow_rate);
}

// c = a + b with write-allocate: the core reads a, b and the lines of c (12 bytes per element)
// and writes c (4): 16 bytes per element through the same window of 5.12 GB/s.
TEST(MimdMemoryLevelParallelism, WriteAllocateReadsEveryStoredLineFirst) {
  const sim::OpResult result =
      run_one(soc_of(arch_text(1, 1000, kWindow + ", write_allocate: true")), kStream);
  // The plan cuts the stream into 1024 steps whose shares round up to whole bytes.
  EXPECT_NEAR(static_cast<double>(result.dram_bytes_read), 12.0 * (1 << 24), 4096);
  EXPECT_NEAR(static_cast<double>(result.dram_bytes_written), 4.0 * (1 << 24), 4096);
  const double expected_cycles = 16.0 * (1 << 24) / kCoreBound;
  EXPECT_GE(static_cast<double>(result.total_cycles), expected_cycles * (1 - 1e-9));
  EXPECT_LE(static_cast<double>(result.total_cycles), 1.02 * expected_cycles);
}

}  // namespace
}  // namespace polyarch::archs::mimd
