#pragma once
// Shared setup of the simd tests: the shipped h100_like parameters and DRAM, a system of one or
// more simd units built from them, and one-op simulations.
#include <string>
#include <vector>

#include "archs/simd/gemm_mapper.h"
#include "archs/simd/kind.h"
#include "archs/simd/module.h"
#include "archs/soc/soc_config.h"
#include "tests/support/ir_builders.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::archs::simd::test {

inline SocConfig load_shipped(const std::string& file) {
  return load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file);
}

inline SimdParams simd_params_of(const SocConfig& soc) {
  for (const auto& unit : soc.units) {
    if (const auto* simd = dynamic_cast<const SimdUnitConfig*>(unit.get())) return simd->params();
  }
  return {};
}

// `units` copies of `params` (named u0, u1, ...) on `soc`'s DRAM and clock.
inline sim::SystemSpec system_of(const SocConfig& soc, const SimdParams& params, int units = 1) {
  sim::SystemSpec system;
  system.name = soc.name;
  system.clock_ghz = soc.clock_ghz;
  system.dram = soc.dram;
  system.interconnect = soc.interconnect;
  for (int i = 0; i < units; ++i) {
    SimdParams copy = params;
    copy.name = "u" + std::to_string(i);
    system.units.push_back({copy.name, "simd", simd_unit_factory(copy, soc.clock_ghz)});
  }
  return system;
}

inline sim::OpResult run_one(const SocConfig& soc, const SimdParams& params, const ir::Op& op) {
  return test_support::simulate_ops(system_of(soc, params), {op}).ops.front();
}

inline ir::Op gemm(int64_t m, int64_t n, int64_t k) {
  return test_support::make_op("gemm", ir::GemmAttrs{.m = m, .n = n, .k = k});
}

inline ir::Op attention(int64_t b, int64_t h, int64_t s, int64_t kv_len, int64_t d, bool causal) {
  return test_support::make_op(
      "attention",
      ir::AttentionAttrs{.b = b, .h = h, .kv_heads = h, .s = s, .kv_len = kv_len, .d = d,
                         .causal = causal});
}

inline ir::Op elementwise(const std::string& fn, int64_t elements, int64_t inputs) {
  return test_support::make_op("ew", ir::ElementwiseAttrs{fn, elements, inputs});
}

inline double seconds(const sim::OpResult& op) { return op.latency_s(); }

// The mapper's problem for a dense m x n x k GEMM of `dtype` operands, each element once.
inline GemmProblem dense_problem(int64_t m, int64_t n, int64_t k, ir::DType dtype) {
  const int64_t elem = ir::dtype_bytes(dtype);
  return {.m = m,
          .n = n,
          .k = k,
          .batch = 1,
          .dtype = dtype,
          .a_bytes = m * k * elem,
          .b_bytes = k * n * elem,
          .c_bytes = m * n * elem};
}

}  // namespace polyarch::archs::simd::test
