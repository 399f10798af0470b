#include "archs/crossbar/kind.h"

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/crossbar_space.h"
#include "archs/crossbar/energy.h"
#include "archs/crossbar/module.h"

namespace polyarch::archs::crossbar {

sim::UnitFactory CrossbarKind::factory(const KindUnit<CrossbarKind>& unit, double soc_clock_ghz) {
  return crossbar_unit_factory(unit.params, soc_clock_ghz, unit.search);
}

ArrayAllocation CrossbarKind::share_program(const KindUnit<CrossbarKind>& unit,
                                            const std::vector<const ir::Op*>& program,
                                            const OpSurroundings& at) {
  return allocate_arrays(unit.params, program, at.memory);
}

double CrossbarKind::estimate_seconds(const KindUnit<CrossbarKind>& unit, const ir::Op& op,
                                      const OpSurroundings& at, const ArrayAllocation& share) {
  // Timing is in seconds (read_ns, ADC rate): the clock does not enter.
  return crossbar_seconds(
      unit.params,
      plan_for_run(unit.params, op, at.memory, unit.search.get(), share.budget_of(op.name)),
      at.memory);
}

std::optional<KindMappingQuery<CrossbarMappingProblem>> CrossbarKind::mapping_query(
    const KindUnit<CrossbarKind>& unit, const ir::Op& op, const OpSurroundings& at,
    const ArrayAllocation& share) {
  return crossbar_mapping_query(unit.params, op, at.memory, at.energy, share.budget_of(op.name));
}

}  // namespace polyarch::archs::crossbar
