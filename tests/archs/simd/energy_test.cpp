// Energy by action and area of a simd unit: the activity the SystemC model records, priced by the
// 7nm table, against sums computed by hand from configs/tech/7nm.yaml.
#include "archs/simd/energy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numeric>

#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd::test {
namespace {

// configs/tech/7nm.yaml, by hand.
constexpr double kMacBf16Pj = 0.073139 + 0.059841;      // bf16 multiply, fp32 add
constexpr double kLaneBf16Pj = 0.073139 + 0.026596;     // bf16 multiply and add
constexpr double kLaneFp32Pj = 0.246013 + 0.059841;     // fp32 multiply and add
constexpr double kSfuPj = 2.0 * (0.246013 + 0.059841);  // two fp32 FMAs
constexpr double kHbm3PjPerBit = 3.5;
constexpr double kLeakageWPerMm2 = 15.5e-3;

// The SRAM curve between its 32 KiB and 1 MiB points, linear in sqrt(KiB) (extrapolated
// beyond): the h100_like register file (256 KiB), scratchpad (228 KiB) and L2 (50 MiB).
double sram_pj_per_bit(double kib) {
  const double at_32 = 0.0207781;
  const double at_1024 = 0.103891;
  return at_32 + (at_1024 - at_32) * (std::sqrt(kib) - std::sqrt(32.0)) /
                     (std::sqrt(1024.0) - std::sqrt(32.0));
}
const double kRegisterPjPerBit = sram_pj_per_bit(256);
const double kScratchpadPjPerBit = sram_pj_per_bit(228);
// h100_like's instruction issue: 30 pJ per thread instruction at Volta's 16 nm-class node,
// scaled to 7 nm by the tables' energy factors 0.05614 / 0.1203, less the register file's own
// price of a 32-bit lane instruction's operands (two reads and a write, 96 bits).
const double kIssuePj = 30.0 * 0.05614 / 0.1203 - 96 * kRegisterPjPerBit;
const double kL2PjPerBit = sram_pj_per_bit(50 * 1024);

// h100_like: 132 cores of 4 x 512 bf16 MACs (bf16 multiplier + fp32 adder), 128 fp32 FMA lanes,
// 16 SFUs of two fp32 FMAs, 256 + 228 KiB SRAM; 50 MiB of L2.
double h100_area_mm2() {
  const double fp32_fma_um2 = 454.3 + 246.856;
  const double core_um2 = 4 * 512 * (96.76 + 246.856) + 128 * fp32_fma_um2 + 16 * 2 * fp32_fma_um2;
  return 132 * (core_um2 * 1e-6 + (256 + 228) * 0.000316) + 50 * 1024 * 0.000316;
}

double total(const sim::EnergyByAction& energy) {
  return std::accumulate(energy.begin(), energy.end(), 0.0,
                         [](double sum, const auto& action) { return sum + action.second; });
}

class SimdEnergy : public ::testing::Test {
 protected:
  SocConfig soc = load_shipped("h100_like.yaml");
  SimdParams params = simd_params_of(soc);
  sim::EnergyContext context{soc.tech.table, soc.dram.kind};

  sim::EnergyByAction energy_of(const sim::OpResult& op) const {
    return simd_op_energy(params, op, simd_activity_of(op), context);
  }
};

TEST_F(SimdEnergy, H100LikeIsPricedAt7nmWithHbm3) {
  EXPECT_EQ(soc.tech.table.node, "7nm");
  EXPECT_EQ(soc.dram.kind, "hbm3");
  // The preset states the derivation rounded to 0.01 pJ; the sums below price at its value.
  EXPECT_NEAR(params.instruction_issue_pj, kIssuePj, 0.01);
}

TEST_F(SimdEnergy, AreaIsCoresPlusL2FromTheTable) {
  EXPECT_NEAR(simd_area_mm2(params, soc.tech.table), h100_area_mm2(), 1e-9 * h100_area_mm2());
}

// GELU of bf16 elements, computed in fp32 as libraries do (library_math.h): 28 lane ops and one
// exp2 of the erf form per element (CUDA's erff and the scaling), plus converting the input in
// and the result out; one input read and one output written.
TEST_F(SimdEnergy, StreamingGeluMatchesHandComputedSums) {
  const double n = 1 << 24;
  const sim::OpResult op = run_one(soc, params, elementwise("gelu", 1 << 24, 1));
  sim::EnergyByAction energy = energy_of(op);
  // Bytes: DRAM 2n in, 2n out (bf16); through L2 and the scratchpad 4n; register file: 30n fp32
  // lane ops read 2 and write 1 element of 4 bytes, n SFU results read and write 4 bytes.
  const double lane_ops = (28 + 2) * n;
  const double register_bytes = lane_ops * 3 * 4 + n * 2 * 4;
  const double scratchpad_bytes = 2 * 4 * n;
  const double l2_bytes = 4 * n + 4 * n;  // to the cores, and DRAM fills and write-backs
  const double dram_bytes = 4 * n;
  EXPECT_EQ(energy.size(), 8u);  // no matrix engine
  // Thread instructions: 30n fp32 lane ops, n SFU results, 4n bytes to and from L2 by 16.
  EXPECT_NEAR(energy["instruction_issue"], (lane_ops + n + 4 * n / 16) * params.instruction_issue_pj * 1e-12,
              1e-6 * energy["instruction_issue"]);
  EXPECT_NEAR(energy["vector_op"], lane_ops * kLaneFp32Pj * 1e-12, 1e-9 * energy["vector_op"]);
  EXPECT_NEAR(energy["sfu_op"], n * kSfuPj * 1e-12, 1e-9 * energy["sfu_op"]);
  EXPECT_NEAR(energy["register_file"], register_bytes * 8 * kRegisterPjPerBit * 1e-12,
              1e-6 * energy["register_file"]);
  EXPECT_NEAR(energy["scratchpad"], scratchpad_bytes * 8 * kScratchpadPjPerBit * 1e-12,
              1e-6 * energy["scratchpad"]);
  EXPECT_NEAR(energy["l2"], l2_bytes * 8 * kL2PjPerBit * 1e-12, 1e-6 * energy["l2"]);
  EXPECT_NEAR(energy["dram"], dram_bytes * 8 * kHbm3PjPerBit * 1e-12, 1e-9 * energy["dram"]);
  EXPECT_NEAR(energy["leakage"], h100_area_mm2() * kLeakageWPerMm2 * op.latency_s(),
              1e-9 * energy["leakage"]);
}

// A GEMM on the tensor cores: M N K bf16 MACs; the accumulators (4 bytes) are read and written
// once per 16 MACs; each tile's outputs are converted on the fp32 lanes.
TEST_F(SimdEnergy, GemmMatchesHandComputedSums) {
  const int64_t m = 1024, n = 1024, k = 1024;
  const sim::OpResult op = run_one(soc, params, gemm(m, n, k));
  sim::EnergyByAction energy = energy_of(op);
  const double macs = static_cast<double>(m * n * k);
  ASSERT_EQ(op.mapping["engine"], "matrix");
  const auto tiles = op.mapping["tiles"].get<double>();
  const auto split = op.mapping["split_k"].get<double>();
  const double tile_outputs =
      op.mapping["tile_m"].get<double>() * op.mapping["tile_n"].get<double>();
  const double lane_ops = tiles * tile_outputs + (split > 1 ? double(m * n) * split : 0.0);
  const double register_bytes = 2 * (macs / 16) * 4 + lane_ops * 3 * 4;
  const double staged = tiles * op.mapping["tile_k"].get<double>() *
                        (op.mapping["tile_m"].get<double>() + op.mapping["tile_n"].get<double>()) *
                        2 * std::ceil(k / split / op.mapping["tile_k"].get<double>());
  const double dram_bytes = static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);
  EXPECT_EQ(energy.size(), 9u);
  EXPECT_NEAR(energy["mac_bf16"], macs * kMacBf16Pj * 1e-12, 1e-9 * energy["mac_bf16"]);
  // Thread instructions: the fp32 lane ops, one wgmma m64n256k16 per 2048 MACs per thread (a
  // full-rate GEMM on Hopper), the staged bytes loaded 16 at a time.
  EXPECT_NEAR(energy["instruction_issue"],
              (lane_ops + macs / 2048 + staged / 16) * params.instruction_issue_pj * 1e-12,
              1e-6 * energy["instruction_issue"]);
  EXPECT_NEAR(energy["vector_op"], lane_ops * kLaneFp32Pj * 1e-12, 1e-9 * energy["vector_op"]);
  EXPECT_EQ(energy["sfu_op"], 0.0);
  EXPECT_NEAR(energy["register_file"], register_bytes * 8 * kRegisterPjPerBit * 1e-12,
              1e-6 * energy["register_file"]);
  EXPECT_NEAR(energy["scratchpad"], 2 * staged * 8 * kScratchpadPjPerBit * 1e-12,
              1e-6 * energy["scratchpad"]);
  EXPECT_NEAR(energy["l2"], (staged + dram_bytes) * 8 * kL2PjPerBit * 1e-12, 1e-6 * energy["l2"]);
  EXPECT_NEAR(energy["dram"], dram_bytes * 8 * kHbm3PjPerBit * 1e-12, 1e-9 * energy["dram"]);
  // Fed by the operand tiles, the engines' arithmetic is a fraction of the op's energy.
  EXPECT_GT(energy["mac_bf16"], 0.1 * total(energy));
}

TEST_F(SimdEnergy, DramEnergyScalesWithBytesAndOtherActionsDoNot) {
  sim::OpResult op = run_one(soc, params, elementwise("add", 1 << 20, 2));
  const sim::EnergyByAction base = energy_of(op);
  op.dram_bytes_read *= 3;
  op.dram_bytes_written *= 3;
  sim::EnergyByAction tripled = energy_of(op);
  EXPECT_NEAR(tripled["dram"], 3 * base.at("dram"), 1e-12 * tripled["dram"]);
  for (const auto& [action, joules] : base) {
    if (action != "dram") {
      EXPECT_EQ(tripled[action], joules) << action;
    }
  }
}

TEST_F(SimdEnergy, LargerL2TakesMoreAreaAndCostsMorePerAccess) {
  SimdParams larger = params;
  larger.l2.capacity_mib *= 2;
  const sim::TechTable& tech = soc.tech.table;
  EXPECT_NEAR(simd_area_mm2(larger, tech) - simd_area_mm2(params, tech), 50 * 1024 * 0.000316,
              1e-9);
  sim::OpResult op = run_one(soc, params, elementwise("add", 1 << 20, 2));
  EXPECT_GT(simd_op_energy(larger, op, simd_activity_of(op), context).at("l2"),
            energy_of(op).at("l2"));
}

TEST_F(SimdEnergy, FlashAttentionPricesTheEngineTheLanesAndTheExps) {
  const sim::OpResult op = run_one(soc, params, attention(2, 8, 1024, 1024, 64, true));
  ASSERT_EQ(op.mapping["kernel"], "flash_attention");
  EXPECT_EQ(op.mapping["activity"]["matrix_macs"]["bf16"].get<int64_t>(), op.macs);
  EXPECT_GT(op.mapping["activity"]["sfu_ops"].get<int64_t>(), 0);
  const sim::EnergyByAction energy = energy_of(op);
  for (const char* action : {"mac_bf16", "vector_op", "sfu_op", "register_file", "scratchpad", "l2",
                             "dram", "leakage"}) {
    EXPECT_GT(energy.at(action), 0.0) << action;
  }
}

TEST_F(SimdEnergy, InstructionIssueIsAnActionOnlyWhereTheUnitPricesIt) {
  const sim::OpResult op = run_one(soc, params, elementwise("add", 1 << 20, 2));
  const auto instructions =
      static_cast<double>(op.mapping["activity"]["thread_instructions"].get<int64_t>());
  EXPECT_NEAR(energy_of(op).at("instruction_issue"), instructions * params.instruction_issue_pj * 1e-12,
              1e-6 * energy_of(op).at("instruction_issue"));
  SimdParams unpriced = params;
  unpriced.instruction_issue_pj = 0;
  EXPECT_EQ(simd_op_energy(unpriced, op, simd_activity_of(op), context).count("instruction_issue"),
            0u);
}

TEST_F(SimdEnergy, UnitConfigReportsEnergyAndArea) {
  const auto* unit = dynamic_cast<const SimdUnitConfig*>(soc.units.front().get());
  ASSERT_NE(unit, nullptr);
  const sim::OpResult op = run_one(soc, params, gemm(256, 256, 256));
  ASSERT_TRUE(unit->op_energy(op, context).has_value());
  EXPECT_EQ(*unit->op_energy(op, context), energy_of(op));
  EXPECT_EQ(unit->area_mm2(soc.tech.table), simd_area_mm2(params, soc.tech.table));
}

// H100 SXM5 is a 700 W part; a large dense bf16 GEMM should draw hundreds of watts.
TEST_F(SimdEnergy, H100LikeLargeBf16GemmDrawsPlausiblePower) {
  const sim::OpResult op = run_one(soc, params, gemm(8192, 8192, 8192));
  const double watts = total(energy_of(op)) / op.latency_s();
  std::printf("[ power ] h100_like 8192^3 bf16 GEMM: %.1f W over %.1f us, area %.1f mm^2\n", watts,
              op.latency_s() * 1e6, simd_area_mm2(params, soc.tech.table));
  EXPECT_GE(watts, 200.0);
  EXPECT_LE(watts, 900.0);
}

}  // namespace
}  // namespace polyarch::archs::simd::test
