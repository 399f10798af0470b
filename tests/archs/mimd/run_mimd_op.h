#pragma once
// Runs one op on a SoC's first unit, a mimd unit with `params`, in a one-unit SystemC system
// (the SoC's clock and DRAM): what the mimd tests compare with their hand derivations.
#include "archs/mimd/kind.h"
#include "archs/mimd/module.h"
#include "archs/soc/soc_config.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::archs::mimd {

inline MimdParams mimd_params_of(const SocConfig& soc) {
  return dynamic_cast<const MimdUnitConfig&>(*soc.units.front()).params();
}

inline sim::OpResult run_mimd_op(const SocConfig& soc, const MimdParams& params, const ir::Op& op) {
  sim::SystemSpec system;
  system.name = soc.name;
  system.clock_ghz = soc.clock_ghz;
  system.dram = soc.dram;
  system.units.push_back({params.name, "mimd", mimd_unit_factory(params, soc.clock_ghz)});
  return test_support::simulate_ops(system, {op}).ops.front();
}

}  // namespace polyarch::archs::mimd
