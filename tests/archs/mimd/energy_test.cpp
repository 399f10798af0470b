// The mimd unit's energy by action and area: each action follows its count and the tech table.
#include <gtest/gtest.h>

#include "archs/mimd/energy.h"
#include "archs/mimd/kind.h"
#include "archs/mimd/module.h"
#include "archs/soc/soc_config.h"
#include "tests/support/ir_builders.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::archs::mimd {
namespace {

const std::string kArch = R"(name: t
clock_ghz: 1.0
technology: 28nm
memory: {dram: {bandwidth_gbps: 100, kind: ddr4}}
units:
  - name: cpu
    kind: mimd
    count: 16
    core: {vector_lanes: 8, local_kib: 512}
    noc: {TOPOLOGY, link_bytes_per_cycle: 16, memory_ports: 1}
)";

SocConfig soc_with(const std::string& topology) {
  std::string text = kArch;
  text.replace(text.find("TOPOLOGY"), 8,
               topology == "mesh" ? "topology: mesh, columns: 4" : "topology: " + topology);
  return parse_soc_config(parse_config_text(text, "arch.yaml"));
}

const MimdParams& params_of(const SocConfig& soc) {
  return dynamic_cast<const MimdUnitConfig&>(*soc.units.front()).params();
}

sim::OpResult run_gemm(const SocConfig& soc) {
  sim::SystemSpec system;
  system.name = soc.name;
  system.clock_ghz = soc.clock_ghz;
  system.dram = soc.dram;
  system.units.push_back(
      {params_of(soc).name, "mimd", mimd_unit_factory(params_of(soc), soc.clock_ghz)});
  return test_support::simulate_ops(system, {test_support::make_op("g", ir::GemmAttrs{.m = 256, .n = 256, .k = 256})})
      .ops.front();
}

TEST(MimdEnergy, MacsAndDramArePricedByTheTechTable) {
  const SocConfig soc = soc_with("mesh");
  const sim::OpResult op = run_gemm(soc);
  const sim::TechTable& tech = soc.tech.table;
  const sim::EnergyByAction energy = mimd_op_energy(params_of(soc), op, mimd_activity_of(op),
                                                    sim::EnergyContext{tech, soc.dram.kind});
  EXPECT_EQ(op.macs, int64_t{256} * 256 * 256);
  EXPECT_NEAR(energy.at("mac"), static_cast<double>(op.macs) * tech.fma_pj(ir::DType::kFp32) * 1e-12,
              1e-15);
  const double dram_bits = 8.0 * static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);
  EXPECT_NEAR(energy.at("dram"), dram_bits * tech.dram_pj_per_bit("ddr4") * 1e-12, 1e-15);
  EXPECT_GT(energy.at("noc"), 0.0);
  EXPECT_GT(energy.at("local_memory"), 0.0);
  EXPECT_NEAR(energy.at("leakage"),
              tech.leakage_w(mimd_area_mm2(params_of(soc), tech)) * op.latency_s(), 1e-15);
}

TEST(MimdEnergy, MoreHopsCostMoreNocEnergy) {
  // A ring of 16 routes farther than a 4x4 mesh: more bit-hops, more router energy.
  const SocConfig mesh = soc_with("mesh");
  const SocConfig ring = soc_with("ring");
  const sim::OpResult on_mesh = run_gemm(mesh);
  const sim::OpResult on_ring = run_gemm(ring);
  const auto noc = [](const SocConfig& soc, const sim::OpResult& op) {
    return mimd_op_energy(params_of(soc), op, mimd_activity_of(op),
                          sim::EnergyContext{soc.tech.table, soc.dram.kind})
        .at("noc");
  };
  EXPECT_GT(noc(ring, on_ring), noc(mesh, on_mesh));
}

TEST(MimdEnergy, AreaGrowsWithCoresAndPrivateMemory) {
  const SocConfig soc = soc_with("mesh");
  MimdParams params = params_of(soc);
  const double base = mimd_area_mm2(params, soc.tech.table);
  params.count *= 2;
  EXPECT_NEAR(mimd_area_mm2(params, soc.tech.table), 2.0 * base, 1e-12);
  params.core.local_kib *= 2;
  EXPECT_GT(mimd_area_mm2(params, soc.tech.table), 2.0 * base);
}

TEST(MimdEnergy, ClockedBitsAreEveryRoutersInputBuffers) {
  const SocConfig soc = soc_with("mesh");
  // 16 cores, each a 5-port router holding 4 flits of 16 bytes per port: 16 x 5 x 4 x 128 bits.
  EXPECT_DOUBLE_EQ(mimd_clocked_bits(params_of(soc)), 16.0 * 5.0 * 4.0 * 128.0);
}

}  // namespace
}  // namespace polyarch::archs::mimd
