// Whole runs on the jedec DRAM backend: the arch file's JEDEC form selects it, a run's command
// streams pass the independent JEDEC checker, the workload must fit the organisation's
// capacity, and the simple form keeps its queue.
#include <gtest/gtest.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"

namespace polyarch::driver {
namespace {

std::string arch_text(const std::string& dram) {
  return "name: t\nclock_ghz: 1.0\nmemory:\n  dram: " + dram +
         "\nunits:\n"
         "  - {name: mxu, kind: systolic, rows: 16, cols: 16, dataflow: ws, dtype: int8,\n"
         "     acc_dtype: int32, buffers: {ifmap_kib: 64, filter_kib: 64, ofmap_kib: 32}}\n"
         "  - {name: vec, kind: simd, count: 4, dtype: int8, vector: {lanes: 16},\n"
         "     scratchpad: {kib: 64, bytes_per_cycle: 64}, core_bytes_per_cycle: 32,\n"
         "     l2: {capacity_mib: 1, bytes_per_cycle: 128, hit_latency_cycles: 20}}\n";
}

archs::SocConfig soc_from(const std::string& dram) {
  return archs::parse_soc_config(parse_config_text(arch_text(dram), "arch.yaml"));
}

ir::Graph small_network() {
  return frontend::layer_list_from_config(
      parse_config_text("layers:\n"
                        "  - {name: conv, op: conv2d, n: 1, c: 16, h: 28, w: 28, k: 32, r: 3, s: 3,"
                        " stride: 1, pad: 1}\n"
                        "  - {name: fc, op: gemm, m: 64, n: 256, k: 512}\n"
                        "  - {name: act, op: elementwise, fn: relu, elements: 65536}\n",
                        "net.yaml"),
      "net");
}

TEST(JedecRun, APresetSelectsTheJedecModelAndModelSimpleKeepsTheQueue) {
  EXPECT_EQ(soc_from("{preset: ddr4_3200}").dram.model, "jedec");
  EXPECT_EQ(soc_from("{standard: hbm2e}").dram.model, "jedec");
  const archs::SocConfig simple = soc_from("{model: simple, preset: ddr4_3200}");
  EXPECT_EQ(simple.dram.model, "simple");
  // The queue then runs at the preset's pins: 64-bit bus x 3200 MT/s.
  EXPECT_DOUBLE_EQ(simple.dram.bandwidth_gbps, 25.6);
  EXPECT_EQ(soc_from("{kind: ddr4, bandwidth_gbps: 25.6}").dram.model, "simple");
  EXPECT_THROW(soc_from("{model: jedec, kind: ddr4, bandwidth_gbps: 25.6}"), Error);
}

TEST(JedecRun, TheCommandStreamsOfAFullSocRunPassTheJedecChecker) {
  archs::SocConfig soc = soc_from("{preset: ddr4_3200}");
  soc.dram.check_commands = true;
  const sim::RunResult result = simulate_workload(soc, small_network());
  ASSERT_TRUE(result.memory && result.memory->jedec);
  const sim::JedecMemoryCounters& counters = *result.memory->jedec;
  EXPECT_GT(counters.commands_checked, 0);
  // Every byte a unit moved went through the controllers in whole bursts.
  const int64_t burst_bytes = 64;
  EXPECT_GE((counters.read_bursts) * burst_bytes, result.summary.dram_bytes_read);
  EXPECT_GE((counters.write_bursts) * burst_bytes, result.summary.dram_bytes_written);
  EXPECT_GT(counters.row_hits, counters.row_misses + counters.row_conflicts);
}

TEST(JedecRun, NoOpMovesDataFasterThanThePins) {
  // DDR4-3200 x 2 channels: 2 x 64 bit / 8 x 3200 MT/s = 51.2 GB/s.
  const double peak_bytes_per_s = 2 * 64 / 8 * 3200e6;
  const sim::RunResult result = simulate_workload(
      soc_from("{preset: ddr4_3200, organization: {channels: 2}}"), small_network());
  for (const sim::OpResult& op : result.ops) {
    const double seconds = static_cast<double>(op.total_cycles) / (op.unit_clock_ghz * 1e9);
    const double bytes = static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);
    EXPECT_LE(bytes / seconds, peak_bytes_per_s) << op.name;
  }
}

TEST(JedecRun, JedecIsSlowerThanAnIdealChannelOfThePeakBandwidth) {
  const sim::RunResult jedec = simulate_workload(soc_from("{preset: ddr4_3200}"), small_network());
  const sim::RunResult ideal = simulate_workload(
      soc_from("{kind: ddr4, bandwidth_gbps: 25.6, latency_ns: 0}"), small_network());
  EXPECT_EQ(jedec.summary.dram_bytes_read, ideal.summary.dram_bytes_read);
  EXPECT_GT(jedec.summary.latency_s, ideal.summary.latency_s);
}

TEST(JedecRun, AWorkloadBeyondTheCapacityIsBadInputGivingBothSizes) {
  // 2 rows x 1024 columns x 8 B x 16 banks = 256 KiB; the network's tensors take more.
  const archs::SocConfig soc = soc_from("{preset: ddr4_3200, organization: {rows: 2}}");
  try {
    simulate_workload(soc, small_network());
    FAIL() << "expected a capacity error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    const std::string text = error.what();
    EXPECT_NE(text.find("262144 bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("arch.yaml:4"), std::string::npos) << text;
  }
}

// Per-op and per-unit DRAM figures of a full run, with its command streams checked: every op's
// traffic is the bytes it reports, every burst found its row open, closed or conflicting, and
// every byte crossed a channel in some window.
TEST(JedecRun, OpsAndUnitsReportTheTrafficTheyMoved) {
  archs::SocConfig soc = soc_from("{preset: ddr4_3200, organization: {channels: 2}}");
  soc.dram.check_commands = true;
  const sim::RunResult result = simulate_workload(soc, small_network());
  ASSERT_TRUE(result.memory && result.memory->jedec);
  const sim::MemoryResult& memory = *result.memory;
  ASSERT_EQ(memory.op_traffic.size(), result.ops.size());
  int64_t op_bytes = 0;
  for (size_t i = 0; i < result.ops.size(); ++i) {
    const sim::OpResult& op = result.ops[i];
    const sim::NamedDramTraffic& traffic = memory.op_traffic[i];
    EXPECT_EQ(traffic.name, op.name);
    EXPECT_EQ(traffic.traffic.bytes_read, op.dram_bytes_read) << op.name;
    EXPECT_EQ(traffic.traffic.bytes_written, op.dram_bytes_written) << op.name;
    const sim::DramTraffic& t = traffic.traffic;
    EXPECT_EQ(t.row_hits + t.row_misses + t.row_conflicts, t.bursts) << op.name;
    EXPECT_GE(t.interference_s, 0.0) << op.name;
    EXPECT_LE(t.interference_s, traffic.busy_s) << op.name;
    op_bytes += t.bytes_read + t.bytes_written;
  }
  ASSERT_EQ(memory.unit_traffic.size(), result.units.size());
  int64_t unit_bursts = 0;
  for (const sim::NamedDramTraffic& unit : memory.unit_traffic) unit_bursts += unit.traffic.bursts;
  const sim::JedecMemoryCounters& counters = *memory.jedec;
  EXPECT_EQ(unit_bursts, counters.read_bursts + counters.write_bursts);
  EXPECT_EQ(op_bytes, result.summary.dram_bytes_read + result.summary.dram_bytes_written);
  ASSERT_EQ(memory.channel_bandwidth.size(), 2u);
  int64_t channel_bytes = 0;
  for (const sim::ChannelBandwidth& channel : memory.channel_bandwidth) {
    for (int64_t bytes : channel.bytes) channel_bytes += bytes;
  }
  EXPECT_EQ(channel_bytes, 64 * unit_bursts);
}

}  // namespace
}  // namespace polyarch::driver
