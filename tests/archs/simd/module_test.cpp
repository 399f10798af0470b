// The SystemC model against the analytical estimate, and behaviour only the simulation shows
// (contention between units on one DRAM).
#include "archs/simd/module.h"

#include <gtest/gtest.h>

#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd::test {
namespace {

ir::Op norm(int64_t rows, int64_t cols) {
  return test_support::make_op("ln", ir::NormAttrs{ir::NormKind::kLayerNorm, rows, cols});
}

ir::Op conv(int64_t c, int64_t hw, int64_t k, int64_t r, int64_t groups) {
  ir::Conv2dAttrs attrs;
  attrs.n = 8;
  attrs.c = c;
  attrs.h = hw;
  attrs.w = hw;
  attrs.k = k;
  attrs.r = r;
  attrs.s = r;
  attrs.pad_h = r / 2;
  attrs.pad_w = r / 2;
  attrs.groups = groups;
  return test_support::make_op("conv", attrs);
}

// Uncontended, the simulated cycles stay within 5% of the estimate the mapper searched with, for
// every kernel kind and for compute-, L2-, DRAM- and latency-bound shapes.
TEST(SimdModule, SimulationMatchesTheAnalyticalEstimateWithinFivePercent) {
  for (const std::string file : {"h100_like.yaml", "edge_dsp_16.yaml"}) {
    const SocConfig soc = load_shipped(file);
    const SimdParams params = simd_params_of(soc);
    const std::vector<ir::Op> ops = {gemm(4096, 4096, 4096),  gemm(1, 8192, 8192),
                                     gemm(64, 4096, 4096),    gemm(512, 768, 768),
                                     gemm(128, 128, 65536),   attention(2, 16, 2048, 2048, 64, true),
                                     attention(16, 8, 1, 4096, 128, false),
                                     norm(4096, 4096),        elementwise("gelu", 1 << 24, 1),
                                     elementwise("add", 512 * 768, 2),
                                     conv(64, 56, 64, 3, 1),  conv(128, 28, 128, 3, 128)};
    for (const ir::Op& op : ops) {
      const sim::OpResult result = run_one(soc, params, op);
      const auto estimate = result.mapping["estimate_cycles"].get<int64_t>();
      EXPECT_NEAR(static_cast<double>(result.total_cycles), static_cast<double>(estimate),
                  0.05 * static_cast<double>(estimate))
          << file << " " << op.name << " " << result.mapping.dump();
    }
  }
}

TEST(SimdModule, FastForwardKeepsTheCyclesOfEveryStepSimulated) {
  const SocConfig soc = load_shipped("h100_like.yaml");
  const SimdParams params = simd_params_of(soc);
  sim::SystemSpec detailed = system_of(soc, params);
  detailed.units[0].make = simd_unit_factory(params, soc.clock_ghz, {.fast_forward = false});
  for (const ir::Op& op : {gemm(4096, 4096, 4096), norm(8192, 4096)}) {
    const sim::OpResult fast = run_one(soc, params, op);
    const sim::OpResult slow = test_support::simulate_ops(detailed, {op}).ops.front();
    EXPECT_EQ(fast.total_cycles, slow.total_cycles);
    EXPECT_GT(fast.mapping["steady_state_fast_forward"]["steps_skipped"].get<int64_t>(), 0);
  }
}

// Two units streaming from one DRAM at once share its bandwidth: each takes about twice as long
// as alone. Contention comes out of the shared channel, not a formula.
TEST(SimdModule, TwoUnitsStreamingFromOneDramShareItsBandwidth) {
  const SocConfig soc = load_shipped("h100_like.yaml");
  const SimdParams params = simd_params_of(soc);
  const ir::Op op = elementwise("add", int64_t{1} << 26, 2);
  const sim::OpResult alone = run_one(soc, params, op);
  const sim::RunResult both = test_support::simulate_ops(system_of(soc, params, 2), {op, op});
  for (const sim::OpResult& shared : both.ops) {
    EXPECT_NEAR(static_cast<double>(shared.total_cycles),
                2.0 * static_cast<double>(alone.total_cycles),
                0.05 * static_cast<double>(alone.total_cycles));
  }
}

}  // namespace
}  // namespace polyarch::archs::simd::test
