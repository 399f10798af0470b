// The pim unit: its bank streams against the DRAM timing checker and closed forms, the GEMV
// advantage over a host at the external bandwidth and where it ends, and every preset running
// GEMV, decode attention and elementwise ops.
#include <gtest/gtest.h>

#include <cstdio>

#include "archs/pim/bank_stream.h"
#include "archs/pim/cost_model.h"
#include "archs/pim/energy.h"
#include "archs/pim/kind.h"
#include "archs/soc/soc_config.h"
#include "compiler/ir/block_sparse_layout.h"
#include "mapping/program/program.h"
#include "sim/kernel/simulation.h"
#include "sim/memory/dram/checker.h"
#include "sim/memory/dram/presets.h"
#include "tests/base/error_capture.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::pim {
namespace {

using test_support::make_op;

SocConfig shipped(const std::string& file) {
  return load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file);
}

PimParams pim_params(const SocConfig& soc) {
  for (const auto& unit : soc.units) {
    if (const auto* pim = dynamic_cast<const PimUnitConfig*>(unit.get())) return pim->params();
  }
  return {};
}

ir::Op gemv(int64_t m, int64_t n, int64_t k) {
  ir::Op op = make_op("gemv", ir::GemmAttrs{.m = m, .n = n, .k = k});
  op.dtype = ir::DType::kFp16;
  return op;
}

// Seconds of `op` alone on `soc`, on the first unit that supports it.
double seconds_on(const SocConfig& soc, const ir::Op& op) {
  ir::Graph graph("one");
  graph.add_op(op);
  std::vector<mapping::UnitCapability> units;
  for (const auto& unit : soc.units) {
    const UnitConfig* config = unit.get();
    units.push_back({config->name(), config->kind(),
                     [config](const ir::Op& candidate) { return config->supports(candidate); }});
  }
  const mapping::Program program = mapping::partition_graph(graph, units);
  return sim::simulate(soc.system_spec(), program, graph).summary.latency_s;
}

TEST(PimBankStream, CommandStreamsPassTheDramTimingChecker) {
  const sim::dram::DramConfig dram = sim::dram::hbm2e_3200();
  for (int64_t banks : {1, 2, 4}) {
    // Long enough to cross two refresh intervals.
    const BankStreamResult stream = stream_rows(dram, {4000, banks, 4, true});
    EXPECT_GE(stream.refreshes, 2) << banks;
    const auto violation = sim::dram::check_command_stream(dram, stream.commands);
    EXPECT_FALSE(violation.has_value())
        << banks << " banks: " << (violation ? violation->rule + " " + violation->message : "");
  }
}

TEST(PimBankStream, TwoBanksHideActivationAndStreamAtTccdLessRefresh) {
  const sim::dram::DramConfig dram = sim::dram::hbm2e_3200();
  const int64_t bursts = 200000;
  const BankStreamResult two = stream_rows(dram, {bursts, 2, 4, false});
  const double refresh_share =
      static_cast<double>(dram.timing.tRFC) / static_cast<double>(dram.timing.tREFI);
  const double ideal = static_cast<double>(bursts * dram.timing.tCCD_L) / (1.0 - refresh_share);
  EXPECT_NEAR(static_cast<double>(two.cycles), ideal, 0.02 * ideal);
  // One bank pays tRCD + tRP around every row.
  const BankStreamResult one = stream_rows(dram, {bursts, 1, 4, false});
  const double rows = static_cast<double>(bursts / dram.bursts_per_row());
  EXPECT_NEAR(static_cast<double>(one.cycles - two.cycles),
              rows * static_cast<double>(dram.timing.tRCD + dram.timing.tRP +
                                         dram.timing.tRTP - dram.timing.tCCD_L),
              0.1 * static_cast<double>(one.cycles - two.cycles));
}

TEST(PimUnit, GemvBeatsTheHostByTheInternalToExternalBandwidthRatio) {
  const SocConfig host = shipped("hbm_host_like.yaml");
  const SocConfig pim = shipped("hbm_pim_like.yaml");
  const PimParams params = pim_params(pim);
  // Per pseudo-channel: 8 PUs x 32 B per tCCD_L inside, 32 B per tBL outside.
  const double ratio =
      static_cast<double>(params.pus_per_pseudo_channel() * params.dram.burst_cycles()) /
      static_cast<double>(params.dram.timing.tCCD_L);
  EXPECT_DOUBLE_EQ(ratio, 4.0);
  for (const ir::Op& op : {gemv(1, 4096, 4096), gemv(1, 11008, 4096)}) {
    const double speedup = seconds_on(host, op) / seconds_on(pim, op);
    std::printf("[ gemv      ] 1x%lldx4096 fp16: HBM-PIM %.2fx faster than the host\n",
                static_cast<long long>(std::get<ir::GemmAttrs>(op.attrs).n), speedup);
    EXPECT_GT(speedup, 0.85 * ratio);
    EXPECT_LT(speedup, 1.05 * ratio);
  }
}

TEST(PimUnit, TheAdvantageFadesAsMGrowsAndEndsAtTheCrossover) {
  const SocConfig host = shipped("hbm_host_like.yaml");
  const SocConfig pim = shipped("hbm_pim_like.yaml");
  double previous = 1e9;
  int64_t crossover = 0;
  for (int64_t m = 1; m <= 16; m *= 2) {
    const double speedup = seconds_on(host, gemv(m, 4096, 4096)) / seconds_on(pim, gemv(m, 4096, 4096));
    std::printf("[ crossover ] M=%-3lld HBM-PIM speedup %.2f\n", static_cast<long long>(m), speedup);
    EXPECT_LT(speedup, previous);
    previous = speedup;
    if (speedup < 1.0 && crossover == 0) crossover = m;
  }
  EXPECT_GE(crossover, 4);
  EXPECT_LE(crossover, 8);
}

TEST(PimUnit, EveryPresetRunsGemvDecodeAttentionAndElementwise) {
  for (const std::string file : {"hbm_pim_like.yaml", "aim_gddr6_like.yaml", "upmem_like.yaml"}) {
    const SocConfig soc = shipped(file);
    const PimParams params = pim_params(soc);
    const std::vector<ir::Op> ops = {
        make_op("gemv", ir::GemmAttrs{.m = 1, .n = 4096, .k = 4096}),
        make_op("decode", ir::AttentionAttrs{.b = 1, .h = 32, .kv_heads = 32, .s = 1,
                                             .kv_len = 2048, .d = 128, .causal = false}),
        make_op("add", ir::ElementwiseAttrs{"add", 1 << 20, 2})};
    for (const ir::Op& op : ops) {
      ASSERT_TRUE(pim_supports(params, op)) << file << " " << op.name;
      const PimPlan plan = plan_op(params, op);
      EXPECT_GT(plan.dram_cycles, 0) << file << " " << op.name;
      EXPECT_GT(plan.commands.column_reads, plan.commands.activates) << file;
      EXPECT_GT(plan.row_buffer_hit_rate, 0.8) << file << " " << op.name;
      EXPECT_GT(plan.internal_bytes, 0);
      EXPECT_GT(seconds_on(soc, op), 0.0);
    }
  }
}

// A decode step with a 512-key window over a 4096-key cache streams the window's K and V
// only: the same plan as a 512-key cache without a window (the banks hold the window's rows).
// A block-sparse layout is not one range of the stacked caches: refused.
TEST(PimUnit, DecodeWithAWindowReadsOnlyTheWindowAndBlockLayoutsAreRefused) {
  const PimParams params = pim_params(shipped("hbm_pim_like.yaml"));
  const ir::AttentionAttrs windowed{.b = 1,
                                    .h = 32,
                                    .kv_heads = 32,
                                    .s = 1,
                                    .kv_len = 4096,
                                    .d = 128,
                                    .causal = true,
                                    .window = 512};
  const ir::AttentionAttrs short_cache{
      .b = 1, .h = 32, .kv_heads = 32, .s = 1, .kv_len = 512, .d = 128, .causal = true};
  const PimPlan window_plan = plan_op(params, make_op("window", windowed));
  const PimPlan short_plan = plan_op(params, make_op("short", short_cache));
  EXPECT_EQ(window_plan.internal_bytes, short_plan.internal_bytes);
  EXPECT_EQ(window_plan.dram_cycles, short_plan.dram_cycles);
  EXPECT_EQ(window_plan.macs, short_plan.macs);
  ir::AttentionAttrs sparse = short_cache;
  sparse.block_sparse = std::make_shared<const ir::BlockSparseLayout>(
      ir::bigbird_layout({.local = 3, .global = 1}, 64, 1, 512, true));
  EXPECT_FALSE(pim_supports(params, make_op("sparse", sparse)));
}

TEST(PimUnit, SoftmaxNeedsExpAndLargeBatchesStayOnTheHost) {
  const PimParams hbm = pim_params(shipped("hbm_pim_like.yaml"));
  const PimParams aim = pim_params(shipped("aim_gddr6_like.yaml"));
  const ir::Op softmax = make_op("softmax", ir::SoftmaxAttrs{.rows = 32, .cols = 2048});
  EXPECT_FALSE(pim_supports(hbm, softmax));
  EXPECT_TRUE(pim_supports(aim, softmax));
  EXPECT_FALSE(pim_supports(hbm, gemv(64, 4096, 4096)));
  EXPECT_FALSE(pim_supports(hbm, make_op("ln", ir::NormAttrs{ir::NormKind::kRmsNorm, 1, 4096})));
}

TEST(PimEnergy, GemvSavesTheIoShareOfTheDramEnergy) {
  const SocConfig pim = shipped("hbm_pim_like.yaml");
  const PimParams params = pim_params(pim);
  const ir::Op op = gemv(1, 4096, 4096);
  sim::OpResult result;
  const PimPlan plan = plan_op(params, op);
  result.macs = plan.macs;
  result.dram_bytes_read = plan.external_read_bytes;
  result.dram_bytes_written = plan.external_write_bytes;
  const sim::EnergyByAction energy =
      pim_op_energy(params, result, pim_activity(plan), {pim.tech.table, pim.dram.kind});
  const double weight_bits = 4096.0 * 4096.0 * 2.0 * 8.0;
  const double all_in = weight_bits * pim.tech.table.dram_pj_per_bit("hbm2e") * 1e-12;
  // Every weight bit is activated and read beside the banks once; only inputs and results
  // cross the I/O.
  EXPECT_NEAR(energy.at("activate") + energy.at("column_read"), all_in * 2.0 / 3.0,
              0.01 * all_in);
  EXPECT_LT(energy.at("io"), 0.01 * all_in);
  EXPECT_GT(energy.at("pu_compute"), 0.0);
}

TEST(PimParams, BanksPerPuMustDivideThePseudoChannelsBanks) {
  const std::string text = R"(name: t
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 409.6}}
units:
  - {name: p, kind: pim, memory: hbm2e_3200, banks_per_pu: 3, lanes: 16}
)";
  const std::string error =
      testing::error_text([&] { parse_soc_config(parse_config_text(text, "arch.yaml")); });
  EXPECT_NE(error.find("arch.yaml:5"), std::string::npos) << error;
  EXPECT_NE(error.find("banks_per_pu"), std::string::npos) << error;
}

}  // namespace
}  // namespace polyarch::archs::pim
