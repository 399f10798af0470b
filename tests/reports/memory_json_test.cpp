#include "reports/memory_json.h"

#include <gtest/gtest.h>

namespace polyarch::reports {
namespace {

sim::MemoryResult jedec_memory() {
  sim::MemoryResult memory;
  memory.model = "jedec";
  memory.jedec.emplace();
  sim::DramTraffic traffic;
  traffic.requests = 4;
  traffic.bytes_read = 3'000'000;
  traffic.bytes_written = 1'000'000;
  traffic.bursts = 62'500;
  traffic.row_hits = 62'000;
  traffic.row_misses = 400;
  traffic.row_conflicts = 100;
  traffic.interference_s = 2e-4;
  memory.unit_traffic.push_back({.name = "mxu", .unit = "mxu", .busy_s = 4e-3, .traffic = traffic});
  memory.op_traffic.push_back({.name = "conv1", .unit = "mxu", .busy_s = 1e-3, .traffic = traffic});
  memory.channel_bandwidth.push_back({.channel = 0, .window_s = 1e-6, .bytes = {100, 200, 0}});
  memory.notes.push_back("note: d.ini: not modelled by polyarch, read and left out: power.VDD");
  return memory;
}

TEST(MemoryJson, UnitsAndOpsCarryTheirTrafficAndBandwidthOverTheirBusyTime) {
  const nlohmann::ordered_json json = memory_json(jedec_memory());
  const nlohmann::ordered_json& op = json["jedec"]["ops"][0];
  EXPECT_EQ(op["name"], "conv1");
  EXPECT_EQ(op["unit"], "mxu");
  EXPECT_EQ(op["bytes_read"], 3'000'000);
  EXPECT_EQ(op["row_hits"], 62'000);
  EXPECT_EQ(op["row_conflicts"], 100);
  EXPECT_DOUBLE_EQ(op["interference_s"].get<double>(), 2e-4);
  // 4 MB in 1 ms = 4 GB/s; the unit's 4 MB over its 4 ms busy = 1 GB/s.
  EXPECT_DOUBLE_EQ(op["achieved_bandwidth_gbps"].get<double>(), 4.0);
  const nlohmann::ordered_json& unit = json["jedec"]["units"][0];
  EXPECT_FALSE(unit.contains("unit"));
  EXPECT_DOUBLE_EQ(unit["achieved_bandwidth_gbps"].get<double>(), 1.0);
  const nlohmann::ordered_json& channel = json["jedec"]["channels"][0];
  EXPECT_EQ(channel["bytes"], 300);
  EXPECT_EQ(channel["windows"], 3);
  EXPECT_EQ(json["notes"].size(), 1u);
}

TEST(MemoryJson, PimWorkReportsItsInternalBytesApartFromTheBusBytes) {
  sim::MemoryResult memory = jedec_memory();
  EXPECT_FALSE(memory_json(memory)["jedec"]["channels"][0].contains("pim_internal_bytes"));
  EXPECT_FALSE(memory_json(memory)["jedec"]["units"][0].contains("pim_internal_bytes"));
  memory.jedec->pim_column_commands = 10;
  memory.jedec->pim_internal_bytes = 2560;  // 10 all-bank commands x 8 PUs x 32 B
  sim::DramTraffic pim;
  pim.pim_blocks = 1;
  pim.pim_column_commands = 10;
  pim.pim_internal_bytes = 2560;
  memory.unit_traffic.push_back({.name = "pim", .unit = "pim", .busy_s = 1e-6, .traffic = pim});
  memory.channel_bandwidth[0].pim_internal_bytes = {2000, 560};
  const nlohmann::ordered_json json = memory_json(memory);
  EXPECT_EQ(json["jedec"]["pim_internal_bytes"], 2560);
  EXPECT_EQ(json["jedec"]["units"][1]["pim_internal_bytes"], 2560);
  // No bus bytes: the PUs' reads stay beside the banks.
  EXPECT_DOUBLE_EQ(json["jedec"]["units"][1]["achieved_bandwidth_gbps"].get<double>(), 0.0);
  EXPECT_EQ(json["jedec"]["channels"][0]["pim_internal_bytes"], 2560);
  EXPECT_EQ(json["jedec"]["channels"][0]["bytes"], 300);
}

TEST(MemoryJson, TheSimpleQueueHasNoJedecSectionAndNoNotes) {
  sim::MemoryResult memory;
  memory.model = "simple";
  const nlohmann::ordered_json json = memory_json(memory);
  EXPECT_FALSE(json.contains("jedec"));
  EXPECT_FALSE(json.contains("notes"));
}

}  // namespace
}  // namespace polyarch::reports
