#include "archs/mimd/kind.h"

#include "archs/mimd/energy.h"
#include "archs/mimd/mapper.h"
#include "archs/mimd/mimd_space.h"
#include "archs/mimd/module.h"

namespace polyarch::archs::mimd {

sim::UnitFactory MimdKind::factory(const KindUnit<MimdKind>& unit, double soc_clock_ghz) {
  return mimd_unit_factory(unit.params, soc_clock_ghz, unit.search);
}

double MimdKind::estimate_seconds(const KindUnit<MimdKind>& unit, const ir::Op& op,
                                  const OpSurroundings& at) {
  const MimdPlan plan = plan_for_run(unit.params, op, at.view, at.clock_ghz, unit.search.get());
  return static_cast<double>(estimate_cycles(unit.params, plan, at.view)) / (at.clock_ghz * 1e9);
}

std::optional<KindMappingQuery<MimdGemmMappingProblem>> MimdKind::mapping_query(
    const KindUnit<MimdKind>& unit, const ir::Op& op, const OpSurroundings& at) {
  return mimd_mapping_query(unit.params, op, at.view, at.clock_ghz, at.energy);
}

}  // namespace polyarch::archs::mimd
