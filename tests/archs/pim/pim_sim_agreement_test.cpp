// The pim unit's estimate (the plan's closed-form bank streams and the host path's bandwidth)
// against its simulation (every PU's commands issued on a controller's bank state, transfers
// through the SoC's DRAM channel), on every shipped preset and every class of op it runs: two
// models that share no timing code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "archs/pim/kind.h"
#include "archs/soc/soc_config.h"
#include "mapping/program/program.h"
#include "sim/kernel/simulation.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::pim {
namespace {

using test_support::make_op;

SocConfig shipped(const std::string& file) {
  return load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file);
}

const UnitConfig& pim_unit(const SocConfig& soc) {
  for (const auto& unit : soc.units) {
    if (unit->kind() == "pim") return *unit;
  }
  throw std::runtime_error(soc.name + " has no pim unit");
}

// Seconds of `op` alone on the SoC's pim unit, simulated.
double simulated_seconds(const SocConfig& soc, const ir::Op& op) {
  ir::Graph graph("one");
  graph.add_op(op);
  const UnitConfig& pim = pim_unit(soc);
  std::vector<mapping::UnitCapability> units = {
      {pim.name(), pim.kind(), [&pim](const ir::Op& candidate) { return pim.supports(candidate); }}};
  sim::SystemSpec spec = soc.system_spec();
  std::erase_if(spec.units, [&](const sim::UnitSpec& unit) { return unit.name != pim.name(); });
  const mapping::Program program = mapping::partition_graph(graph, units);
  return sim::simulate(spec, program, graph).summary.latency_s;
}

ir::Op typed(ir::Op op) {
  op.dtype = ir::DType::kFp16;
  return op;
}

std::vector<ir::Op> shape_classes() {
  return {typed(make_op("gemv_square", ir::GemmAttrs{.m = 1, .n = 4096, .k = 4096})),
          typed(make_op("gemv_tall", ir::GemmAttrs{.m = 1, .n = 11008, .k = 4096})),
          typed(make_op("gemm_batch8", ir::GemmAttrs{.m = 8, .n = 4096, .k = 11008})),
          typed(make_op("gemv_skinny", ir::GemmAttrs{.m = 1, .n = 16, .k = 65536})),
          typed(make_op("add", ir::ElementwiseAttrs{"add", 1 << 22, 2})),
          typed(make_op("decode_attention",
                        ir::AttentionAttrs{.b = 1, .h = 32, .kv_heads = 8, .s = 1, .kv_len = 4096,
                                           .d = 128, .causal = false}))};
}

TEST(PimAgreement, EstimateAndSimulationAgreeOnEveryPresetAndShapeClass) {
  double worst = 0;
  for (const std::string file : {"hbm_pim_like.yaml", "aim_gddr6_like.yaml", "upmem_like.yaml"}) {
    const SocConfig soc = shipped(file);
    const UnitConfig& pim = pim_unit(soc);
    for (const ir::Op& op : shape_classes()) {
      if (!pim.supports(op)) continue;
      const double estimate = *pim.estimate_seconds(op, soc.memory_context(), soc.clock_ghz);
      const double simulated = simulated_seconds(soc, op);
      const double error = (estimate - simulated) / simulated;
      worst = std::max(worst, std::abs(error));
      std::printf("[ agreement ] %-20s %-16s estimate %10.3f us  simulated %10.3f us  %+6.2f %%\n",
                  file.c_str(), op.name.c_str(), estimate * 1e6, simulated * 1e6, 100 * error);
      EXPECT_LT(std::abs(error), 0.10) << file << " " << op.name;
    }
  }
  std::printf("[ agreement ] largest difference %.2f %%\n", 100 * worst);
}

}  // namespace
}  // namespace polyarch::archs::pim
