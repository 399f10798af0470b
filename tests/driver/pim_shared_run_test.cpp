// Whole runs with PIM units in the banks of the SoC's own JEDEC DRAM (`memory: shared`): the
// run's command streams, PIM and host together, pass the independent JEDEC checker; the device
// changes mode where host and PIM ops alternate; and the arch file's mistakes are bad input
// naming the key.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"

namespace polyarch::driver {
namespace {

std::string arch_text(const std::string& dram, const std::string& pim_memory,
                      int banks_per_pu = 2) {
  return "name: t\nclock_ghz: 1.0\nmemory:\n  dram: " + dram +
         "\nunits:\n"
         "  - {name: vec, kind: simd, count: 4, dtype: fp16, vector: {lanes: 16},\n"
         "     scratchpad: {kib: 64, bytes_per_cycle: 64}, core_bytes_per_cycle: 32,\n"
         "     l2: {capacity_mib: 1, bytes_per_cycle: 128, hit_latency_cycles: 20}}\n"
         "  - {name: pim, kind: pim, memory: " +
         pim_memory + ", banks_per_pu: " + std::to_string(banks_per_pu) +
         ", lanes: 16, dtype: fp16,\n"
         "     functions: [add, mul], register_bytes: 8192, max_batch: 4}\n";
}

archs::SocConfig soc_from(const std::string& text) {
  return archs::parse_soc_config(parse_config_text(text, "arch.yaml"));
}

// Decode-like: GEMVs the PUs take, between ops only the host runs (gelu is not a PU function).
ir::Graph decode_like() {
  return frontend::layer_list_from_config(
      parse_config_text("layers:\n"
                        "  - {name: up, op: gemm, m: 1, n: 4096, k: 1024}\n"
                        "  - {name: act, op: elementwise, fn: gelu, elements: 4096}\n"
                        "  - {name: down, op: gemm, m: 1, n: 1024, k: 4096}\n"
                        "  - {name: act2, op: elementwise, fn: gelu, elements: 1024}\n"
                        "  - {name: out, op: gemm, m: 1, n: 4096, k: 1024}\n",
                        "net.yaml"),
      "net");
}

TEST(PimSharedRun, PimAndHostCommandStreamsOfAFullRunPassTheJedecChecker) {
  archs::SocConfig soc = soc_from(arch_text("{preset: hbm2e_3200}", "shared"));
  soc.dram.check_commands = true;
  const sim::RunResult result = simulate_workload(soc, decode_like());
  ASSERT_TRUE(result.memory && result.memory->jedec);
  const sim::JedecMemoryCounters& counters = *result.memory->jedec;
  EXPECT_GT(counters.commands_checked, 0);
  int pim_ops = 0;
  for (const sim::OpResult& op : result.ops) pim_ops += op.unit == "pim" ? 1 : 0;
  ASSERT_GT(pim_ops, 0) << "the GEMVs should run beside the banks";
  EXPECT_GT(counters.pim_column_commands, 0);
  // Host ops between PIM ops take the device out of PIM mode and the next PIM op back in.
  EXPECT_GE(counters.pim_mode_entries, counters.pim_mode_exits);
  EXPECT_GT(counters.pim_mode_exits, 0);
  bool pim_unit_reported = false;
  for (const sim::NamedDramTraffic& unit : result.memory->unit_traffic) {
    if (unit.name != "pim") continue;
    pim_unit_reported = true;
    EXPECT_GT(unit.traffic.pim_blocks, 0);
    EXPECT_GT(unit.traffic.pim_column_commands, 0);
  }
  EXPECT_TRUE(pim_unit_reported);
}

// Each GEMV of decode_like() holds 4096 x 1024 fp16 weights (8 MiB). hbm2e_3200 has 8 channels
// x 2 pseudo-channels x 16 banks; with two banks per PU that is 128 PUs, each streaming 8 MiB /
// 128 = 2048 bursts of 32 B once (its input vector fits the PU's registers: one pass). A
// channel's 16 PUs thus move 16 x 2048 x 32 B = 1 MiB per GEMV between banks and PUs.
TEST(PimSharedRun, InternalBytesPerChannelAreTheBurstsOfItsPusAndStayOffTheBus) {
  const archs::SocConfig soc = soc_from(arch_text("{preset: hbm2e_3200}", "shared"));
  const sim::RunResult result = simulate_workload(soc, decode_like());
  ASSERT_TRUE(result.memory && result.memory->jedec);
  int64_t pim_ops = 0;
  for (const sim::OpResult& op : result.ops) pim_ops += op.unit == "pim" ? 1 : 0;
  ASSERT_GT(pim_ops, 0) << "the GEMVs should run beside the banks";
  const int64_t per_channel = pim_ops * 16 * 2048 * 32;
  const std::vector<sim::ChannelBandwidth>& channels = result.memory->channel_bandwidth;
  ASSERT_EQ(channels.size(), 8u);
  int64_t bus_bytes = 0;
  for (const sim::ChannelBandwidth& channel : channels) {
    int64_t internal = 0;
    for (int64_t window : channel.pim_internal_bytes) internal += window;
    EXPECT_EQ(internal, per_channel) << "channel " << channel.channel;
    for (int64_t window : channel.bytes) bus_bytes += window;
  }
  EXPECT_EQ(result.memory->jedec->pim_internal_bytes, 8 * per_channel);
  // The bus counters hold what the units moved over the bus, and nothing of the PUs' streams.
  int64_t unit_bus_bytes = 0;
  int64_t unit_internal_bytes = 0;
  for (const sim::NamedDramTraffic& unit : result.memory->unit_traffic) {
    unit_bus_bytes += unit.traffic.bytes_read + unit.traffic.bytes_written;
    unit_internal_bytes += unit.traffic.pim_internal_bytes;
  }
  EXPECT_EQ(bus_bytes, unit_bus_bytes);
  EXPECT_EQ(unit_internal_bytes, 8 * per_channel);
  int64_t op_internal_bytes = 0;
  for (const sim::NamedDramTraffic& op : result.memory->op_traffic) {
    EXPECT_EQ(op.traffic.pim_internal_bytes, op.unit == "pim" ? 8 * 16 * 2048 * 32 : 0) << op.name;
    op_internal_bytes += op.traffic.pim_internal_bytes;
  }
  EXPECT_EQ(op_internal_bytes, 8 * per_channel);
}

TEST(PimSharedRun, SharedMemoryNeedsTheSocDramInJedecForm) {
  try {
    soc_from(arch_text("{kind: hbm2e, bandwidth_gbps: 409.6}", "shared"));
    FAIL() << "expected bad input";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    const std::string text = error.what();
    EXPECT_NE(text.find("arch.yaml:"), std::string::npos) << text;
    EXPECT_NE(text.find("memory: shared"), std::string::npos) << text;
    EXPECT_NE(text.find("JEDEC form"), std::string::npos) << text;
  }
}

TEST(PimSharedRun, BanksPerPuMustDivideTheSocDramsBanks) {
  try {
    soc_from(arch_text("{preset: hbm2e_3200}", "shared", 3));
    FAIL() << "expected bad input";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    const std::string text = error.what();
    EXPECT_NE(text.find("banks_per_pu=3"), std::string::npos) << text;
    EXPECT_NE(text.find("16 banks"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace polyarch::driver
