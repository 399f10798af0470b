// Parsing and validation of `kind: dataflow` units: every error names file:line and the key.
#include "archs/dataflow/params.h"

#include <gtest/gtest.h>

#include "tests/archs/dataflow/dataflow_fixture.h"
#include "tests/base/error_capture.h"

namespace polyarch::archs::dataflow::test {
namespace {

const std::string kUnit = R"(name: t
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 50}}
units:
  - name: fabric
    kind: dataflow
    pe:
      rows: 4
      cols: 6
      lanes: 8
      alu_ops: [add, mul, exp]
      mac: {dtypes: [fp16]}
      latency_cycles: {exp: 4, mac: 2}
    network: {topology: torus, links_per_direction: 2, hops_per_cycle: 3}
    memory_pes: {count: 8, scratchpad_kib: 32, bytes_per_cycle: 32}
    config: {load_cycles: 500, contexts: 4}
)";

std::string error_of(const std::string& text) {
  return testing::error_text([&] { parse_soc_config(parse_config_text(text, "arch.yaml")); });
}

std::string with(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(DataflowParams, ParsesGridNetworkMemoryAndConfiguration) {
  const DataflowParams params =
      dataflow_params_of(parse_soc_config(parse_config_text(kUnit, "a.yaml")));
  EXPECT_EQ(params.pe.count(), 24);
  EXPECT_EQ(params.pe.lanes, 8);
  EXPECT_TRUE(params.pe.has("exp"));
  EXPECT_FALSE(params.pe.has("div"));
  EXPECT_TRUE(params.pe.has_mac(ir::DType::kFp16));
  EXPECT_EQ(params.pe.latency("exp"), 4);
  EXPECT_EQ(params.pe.latency("mac"), 2);
  EXPECT_EQ(params.pe.latency("add"), 1);
  EXPECT_EQ(params.network.topology, Topology::kTorus);
  EXPECT_EQ(params.network.hops_per_cycle, 3);
  EXPECT_DOUBLE_EQ(params.scratchpad_bytes(), 8 * 32 * 1024.0);
  EXPECT_EQ(params.config_load_cycles(10), 500);
  EXPECT_EQ(params.config.contexts, 4);
}

TEST(DataflowParams, ConfigurationOverABusTakesBytesPerPeOverItsWidth) {
  const DataflowParams params = dataflow_params_of(parse_soc_config(parse_config_text(
      with(kUnit, "load_cycles: 500", "bytes_per_pe: 64, bus_bytes_per_cycle: 16"), "a.yaml")));
  EXPECT_EQ(params.config_load_cycles(10), 40);
}

TEST(DataflowParams, AnUnknownAluOpSuggestsTheNearest) {
  const std::string error = error_of(with(kUnit, "[add, mul, exp]", "[add, mull, exp]"));
  EXPECT_NE(error.find("arch.yaml:11"), std::string::npos) << error;
  EXPECT_NE(error.find("'mul'"), std::string::npos) << error;
}

TEST(DataflowParams, AnUnknownTopologyListsTheChoices) {
  const std::string error = error_of(with(kUnit, "torus", "ring"));
  EXPECT_NE(error.find("arch.yaml:14"), std::string::npos) << error;
  EXPECT_NE(error.find("mesh"), std::string::npos) << error;
}

TEST(DataflowParams, ALatencyForAnOpThePesLackIsRejected) {
  const std::string error = error_of(with(kUnit, "exp: 4", "div: 4"));
  EXPECT_NE(error.find("arch.yaml:13"), std::string::npos) << error;
  EXPECT_NE(error.find("div"), std::string::npos) << error;
}

TEST(DataflowParams, RoutingThroughPesMovesOnePePerCycle) {
  const DataflowParams params = dataflow_params_of(parse_soc_config(parse_config_text(
      with(kUnit, "hops_per_cycle: 3", "hops_per_cycle: 1, routing: through_pes"), "a.yaml")));
  EXPECT_EQ(params.network.routing, Routing::kThroughPes);
  const std::string error =
      error_of(with(kUnit, "hops_per_cycle: 3", "hops_per_cycle: 3, routing: through_pes"));
  EXPECT_NE(error.find("arch.yaml:14"), std::string::npos) << error;
  EXPECT_NE(error.find("hops_per_cycle must be 1"), std::string::npos) << error;
}

TEST(DataflowParams, LoadCyclesAndAConfigBusTogetherAreRejected) {
  const std::string error =
      error_of(with(kUnit, "load_cycles: 500", "load_cycles: 500, bytes_per_pe: 8"));
  EXPECT_NE(error.find("arch.yaml:16"), std::string::npos) << error;
  EXPECT_NE(error.find("not both"), std::string::npos) << error;
}

TEST(DataflowParams, AMisspelledKeySuggestsTheNearest) {
  const std::string error = error_of(with(kUnit, "lanes: 8", "lane: 8"));
  EXPECT_NE(error.find("arch.yaml:10"), std::string::npos) << error;
  EXPECT_NE(error.find("lanes"), std::string::npos) << error;
}

TEST(DataflowParams, ZeroRowsAndMissingMemoryPesAreRejected) {
  EXPECT_NE(error_of(with(kUnit, "rows: 4", "rows: 0")).find("rows"), std::string::npos);
  const std::string error = error_of(
      with(kUnit, "    memory_pes: {count: 8, scratchpad_kib: 32, bytes_per_cycle: 32}\n", ""));
  EXPECT_NE(error.find("memory_pes"), std::string::npos) << error;
}

TEST(DataflowParams, PublishedAreasDefaultToUnpricedAndNegativeOnesAreRejected) {
  const DataflowParams plain =
      dataflow_params_of(parse_soc_config(parse_config_text(kUnit, "a.yaml")));
  EXPECT_EQ(plain.pe.fifo_area_mm2, 0.0);
  EXPECT_EQ(plain.pe.control_area_mm2, 0.0);
  EXPECT_EQ(plain.memory.logic_area_mm2, 0.0);
  EXPECT_FALSE(plain.network.area_mm2.has_value());
  EXPECT_EQ(plain.dram_interface_area_mm2, 0.0);
  const DataflowParams priced = dataflow_params_of(parse_soc_config(parse_config_text(
      with(with(kUnit, "hops_per_cycle: 3", "hops_per_cycle: 3, area_mm2: 2.5"),
           "    config:", "    dram_interface_area_mm2: 1.5\n    config:"),
      "a.yaml")));
  EXPECT_EQ(*priced.network.area_mm2, 2.5);
  EXPECT_EQ(priced.dram_interface_area_mm2, 1.5);
  const std::string error =
      error_of(with(kUnit, "bytes_per_cycle: 32", "bytes_per_cycle: 32, logic_area_mm2: -1"));
  EXPECT_NE(error.find("arch.yaml:15"), std::string::npos) << error;
  EXPECT_NE(error.find("logic_area_mm2"), std::string::npos) << error;
}

TEST(DataflowParams, ShippedPresetsParse) {
  const DataflowParams plasticine = shipped_params("plasticine_like.yaml");
  EXPECT_EQ(plasticine.pe.count(), 64);
  EXPECT_EQ(plasticine.memory.count, 64);
  EXPECT_EQ(plasticine.pe.lanes * plasticine.pe.stages, 96);
  const DataflowParams hycube = shipped_params("hycube_like.yaml");
  EXPECT_EQ(hycube.pe.count(), 16);
  EXPECT_EQ(hycube.network.hops_per_cycle, 4);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
