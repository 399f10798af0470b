#pragma once
// Shared setup of the dataflow tests: the shipped presets, a hand-made scalar CGRA, systems of
// one dataflow unit, one-op simulations and op builders.
#include <memory>
#include <string>
#include <vector>

#include "archs/dataflow/kind.h"
#include "archs/dataflow/module.h"
#include "archs/soc/soc_config.h"
#include "tests/support/ir_builders.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::archs::dataflow::test {

inline SocConfig load_shipped(const std::string& file) {
  return load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file);
}

inline DataflowParams dataflow_params_of(const SocConfig& soc) {
  for (const auto& unit : soc.units) {
    if (const auto* fabric = dynamic_cast<const DataflowUnitConfig*>(unit.get())) {
      return fabric->params();
    }
  }
  return {};
}

inline DataflowParams shipped_params(const std::string& file) {
  return dataflow_params_of(load_shipped(file));
}

// A scalar 4 x 4 CGRA: one op per PE per cycle, 4 memory PEs, unit latencies.
inline DataflowParams small_cgra() {
  DataflowParams params;
  params.name = "cgra";
  params.pe.rows = 4;
  params.pe.cols = 4;
  params.pe.registers = 8;
  params.pe.alu_ops = {"add", "sub", "mul", "max", "min", "exp", "div", "sqrt"};
  params.pe.mac_dtypes = {ir::DType::kFp32};
  params.memory.count = 4;
  params.memory.bytes_per_cycle = 64;
  params.config.load_cycles = 100;
  return params;
}

inline sim::SystemSpec system_of(const SocConfig& soc, const DataflowParams& params) {
  sim::SystemSpec system;
  system.name = soc.name;
  system.clock_ghz = soc.clock_ghz;
  system.dram = soc.dram;
  system.interconnect = soc.interconnect;
  system.units.push_back(
      {params.name, "dataflow",
       dataflow_unit_factory(params, soc.clock_ghz, std::make_shared<MappingCache>())});
  return system;
}

inline ir::Op gemm(int64_t m, int64_t n, int64_t k) {
  return test_support::make_op("gemm", ir::GemmAttrs{.m = m, .n = n, .k = k});
}

inline ir::Op conv(int64_t c, int64_t hw, int64_t k, int64_t r, int64_t stride) {
  ir::Conv2dAttrs attrs;
  attrs.c = c;
  attrs.h = hw;
  attrs.w = hw;
  attrs.k = k;
  attrs.r = r;
  attrs.s = r;
  attrs.stride_h = stride;
  attrs.stride_w = stride;
  attrs.pad_h = r / 2;
  attrs.pad_w = r / 2;
  return test_support::make_op("conv", attrs);
}

inline ir::Op elementwise(const std::string& fn, int64_t elements, int64_t inputs) {
  return test_support::make_op(fn, ir::ElementwiseAttrs{fn, elements, inputs});
}

}  // namespace polyarch::archs::dataflow::test
