#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"
#include "reports/json_report.h"

namespace polyarch::sim {
namespace {

std::filesystem::path source(const std::string& relative) {
  return std::filesystem::path(POLYARCH_SOURCE_DIR) / relative;
}

sim::RunResult run(const std::string& arch, const std::string& workload) {
  return driver::run({source(arch), source(workload), 0});
}

TEST(EnergyReport, EnergyAndAveragePowerAreSetAndConsistent) {
  sim::RunResult result = run("configs/arch/tpu_v1_like.yaml", "workloads/resnet50_layers.yaml");
  ASSERT_TRUE(result.summary.energy_j.has_value());
  ASSERT_TRUE(result.summary.avg_power_w.has_value());
  EXPECT_GT(*result.summary.energy_j, 0.0);
  EXPECT_NEAR(*result.summary.avg_power_w, *result.summary.energy_j / result.summary.latency_s,
              1e-9 * *result.summary.avg_power_w);
  EXPECT_EQ(result.summary.technology, "28nm");
}

TEST(EnergyReport, OpsAndUnitsAddUpToTheSummary) {
  sim::RunResult result = run("configs/arch/tpu_v1_like.yaml", "workloads/resnet50_layers.yaml");
  double ops = 0.0;
  for (const sim::OpResult& op : result.ops) {
    ASSERT_TRUE(op.energy_j.has_value()) << op.name;
    double actions = 0.0;
    for (const auto& [action, joules] : op.energy_by_action) actions += joules;
    EXPECT_NEAR(*op.energy_j, actions, 1e-12 * actions) << op.name;
    ops += *op.energy_j;
  }
  double units = 0.0;
  for (const sim::UnitResult& unit : result.units) units += unit.energy_j.value_or(0.0);
  // Units add their idle leakage to their ops' energy.
  EXPECT_GE(units, ops * (1.0 - 1e-12));
  // The chip adds its DRAM's background: two DDR3 channels of eight x8 devices, each
  // 1.35 V x (51 + (245 - 51) x 280 / 6240) mA (configs/tech/28nm.yaml, from DRAMsim3's
  // DDR3_8Gb_x8_1600.ini), over the run.
  const double background_w = 2 * 8 * 1.35 * (51.0 + 194.0 * 280.0 / 6240.0) * 1e-3;
  const double background_j = background_w * result.summary.latency_s;
  EXPECT_NEAR(result.summary.energy_by_action.at("dram_background"), background_j,
              2e-4 * background_j);  // the table rounds to 0.1 mW
  EXPECT_NEAR(units + result.summary.energy_by_action.at("dram_background"),
              *result.summary.energy_j, 1e-9 * units);
  EXPECT_DOUBLE_EQ(
      result.summary.energy_by_action.at("dram"),
      static_cast<double>(result.summary.dram_bytes_read + result.summary.dram_bytes_written) *
          8.0 * 20.0 * 1e-12);  // DDR3 at 20 pJ/bit (configs/tech/28nm.yaml)
}

TEST(EnergyReport, JsonCarriesEnergyKeys) {
  nlohmann::ordered_json report =
      reports::report_json(run("configs/arch/edge_os_32x32.yaml", "workloads/resnet50_layers.yaml"));
  EXPECT_TRUE(report["summary"]["energy_j"].is_number());
  EXPECT_TRUE(report["summary"]["avg_power_w"].is_number());
  EXPECT_TRUE(report["summary"]["energy_by_action"].is_object());
  EXPECT_TRUE(report["ops"][0]["energy_by_action"]["mac"].is_number());
  EXPECT_TRUE(report["units"][0]["energy_by_action"]["leakage"].is_number());
  EXPECT_TRUE(report["units"][0]["area_mm2"].is_number());
}

TEST(EnergyReport, ArchOverrideChangesTheMacEnergy) {
  archs::SocConfig soc = archs::load_soc_config(source("configs/arch/tpu_v1_like.yaml"));
  ir::Graph graph = frontend::load_workload(source("workloads/resnet50_layers.yaml"));
  sim::RunResult base = driver::simulate_workload(soc, graph);
  sim::apply_tech_overrides(soc.tech.table,
                            parse_config_text("mult_pj: {int8: 1.0}", "override.yaml"));
  sim::RunResult doubled = driver::simulate_workload(soc, graph);
  EXPECT_GT(doubled.summary.energy_by_action.at("mac"), base.summary.energy_by_action.at("mac"));
  EXPECT_DOUBLE_EQ(doubled.summary.energy_by_action.at("dram"),
                   base.summary.energy_by_action.at("dram"));
}

TEST(EnergyReport, NodeWithoutTableNotesItsStandIn) {
  sim::RunResult result = run("configs/arch/eyeriss_like.yaml", "workloads/resnet50_layers.yaml");
  EXPECT_EQ(result.summary.technology, "65nm");
  EXPECT_TRUE(result.summary.energy_notes.empty());
  archs::SocConfig soc = archs::parse_soc_config(parse_config_text(R"(name: t
clock_ghz: 1.0
technology: 22nm
memory:
  dram: {kind: hbm2, bandwidth_gbps: 600}
units:
  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}
)",
                                                                   "arch.yaml"));
  EXPECT_EQ(soc.tech.table.node, "28nm");
  EXPECT_FALSE(soc.tech.note.empty());
}

}  // namespace
}  // namespace polyarch::sim
