#include "archs/pim/kind.h"

#include "archs/pim/cost_model.h"
#include "archs/pim/energy.h"
#include "archs/pim/module.h"
#include "archs/pim/pim_space.h"

namespace polyarch::archs::pim {

sim::UnitFactory PimKind::factory(const KindUnit<PimKind>& unit, double soc_clock_ghz) {
  (void)soc_clock_ghz;  // PUs run off the DRAM command clock
  return pim_unit_factory(unit.params, unit.search);
}

double PimKind::estimate_seconds(const KindUnit<PimKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at) {
  (void)at;  // the PUs stream their own banks; external transfers are in the plan
  const double clock_hz = static_cast<double>(unit.params.dram.organization.clock_mhz) * 1e6;
  return static_cast<double>(plan_for_run(unit.params, op, unit.search.get()).dram_cycles) /
         clock_hz;
}

std::optional<KindMappingQuery<PimGemmMappingProblem>> PimKind::mapping_query(
    const KindUnit<PimKind>& unit, const ir::Op& op, const OpSurroundings& at) {
  // As estimate_seconds: the clock and the SoC DRAM do not enter.
  return pim_mapping_query(unit.params, op, at.energy);
}

}  // namespace polyarch::archs::pim
