// The pim unit's estimate (the plan's closed-form bank streams and the host path's bandwidth)
// against its simulation (every PU's commands issued on a controller's bank state, transfers
// through the SoC's DRAM channel), on every shipped preset, in per-bank mode and in the banks of
// the SoC's own DRAM (mixed_soc_jedec), and on every class of op it runs: two models that share
// no timing code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "archs/pim/kind.h"
#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "mapping/program/program.h"
#include "sim/kernel/simulation.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::pim {
namespace {

using test_support::make_op;

std::string arch_path(const std::string& file) {
  return std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file;
}

// A shipped arch file, or "<file> per_bank": the same with its PUs in per-bank mode.
SocConfig arch(const std::string& name) {
  const std::string per_bank = " per_bank";
  if (!name.ends_with(per_bank)) return load_soc_config(arch_path(name));
  const std::string file = name.substr(0, name.size() - per_bank.size());
  std::ifstream in(arch_path(file));
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const size_t mode = yaml.find("mode: all_bank");
  if (mode == std::string::npos) throw std::runtime_error(file + " names no all_bank mode");
  yaml.replace(mode, 14, "mode: per_bank");
  return parse_soc_config(parse_config_text(yaml, file));
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
  for (const std::string file : {"hbm_pim_like.yaml", "aim_gddr6_like.yaml", "upmem_like.yaml",
                                 "hbm_pim_like.yaml per_bank", "mixed_soc_jedec.yaml"}) {
    const SocConfig soc = arch(file);
    const UnitConfig& pim = pim_unit(soc);
    for (const ir::Op& op : shape_classes()) {
      if (!pim.supports(op)) continue;
      const double estimate = *pim.estimate_seconds(op, soc.memory_context(), soc.clock_ghz);
      const double simulated = simulated_seconds(soc, op);
      const double error = (estimate - simulated) / simulated;
      worst = std::max(worst, std::abs(error));
      std::printf("[ agreement ] %-20s %-16s estimate %10.3f us  simulated %10.3f us  %+6.2f %%\n",
                  file.c_str(), op.name.c_str(), estimate * 1e6, simulated * 1e6, 100 * error);
      EXPECT_LT(std::abs(error), 0.08) << file << " " << op.name;
    }
  }
  std::printf("[ agreement ] largest difference %.2f %%\n", 100 * worst);
}

}  // namespace
}  // namespace polyarch::archs::pim
