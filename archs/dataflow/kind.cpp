#include "archs/dataflow/kind.h"

#include "archs/dataflow/cost_model.h"
#include "archs/dataflow/dataflow_space.h"
#include "archs/dataflow/energy.h"
#include "archs/dataflow/module.h"
#include "sim/memory/memory_view.h"

namespace polyarch::archs::dataflow {

bool DataflowKind::supports(const Params& params, const ir::Op& op) {
  return unsupported_reason(params, op).empty();
}

sim::UnitFactory DataflowKind::factory(const KindUnit<DataflowKind>& unit, double soc_clock_ghz) {
  return dataflow_unit_factory(unit.params, soc_clock_ghz, unit.state, unit.search);
}

double DataflowKind::estimate_seconds(const KindUnit<DataflowKind>& unit, const ir::Op& op,
                                      const OpSurroundings& at) {
  const DataflowPlan plan =
      plan_for_run(unit.params, op, unit.state, at.view, at.clock_ghz, unit.search.get());
  return static_cast<double>(
             estimate_cycles(plan, at.view.dram_bytes_per_cycle, at.view.dram_latency_cycles)) /
         (at.clock_ghz * 1e9);
}

std::optional<KindMappingQuery<DataflowGemmMappingProblem>> DataflowKind::mapping_query(
    const KindUnit<DataflowKind>& unit, const ir::Op& op, const OpSurroundings& at) {
  return dataflow_mapping_query(unit.params, op, unit.state, at.view, at.clock_ghz, at.energy);
}

}  // namespace polyarch::archs::dataflow
