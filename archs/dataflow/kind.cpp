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

nlohmann::ordered_json DataflowKind::describe(const Params& params) {
  nlohmann::ordered_json alu_ops = nlohmann::ordered_json::array();
  for (const std::string& op : params.pe.alu_ops) alu_ops.push_back(op);
  nlohmann::ordered_json mac = nlohmann::ordered_json::array();
  for (ir::DType dtype : params.pe.mac_dtypes) mac.push_back(std::string(ir::dtype_name(dtype)));
  const ConfigParams& config = params.config;
  return {{"name", params.name},
          {"kind", "dataflow"},
          {"clock_ghz", params.clock_ghz ? nlohmann::ordered_json(*params.clock_ghz)
                                         : nlohmann::ordered_json(nullptr)},
          {"dtype", ir::dtype_name(params.dtype)},
          {"pe",
           {{"rows", params.pe.rows},
            {"cols", params.pe.cols},
            {"lanes", params.pe.lanes},
            {"stages", params.pe.stages},
            {"registers", params.pe.registers},
            {"alu_ops", alu_ops},
            {"mac_dtypes", mac}}},
          {"network",
           {{"topology", params.network.topology == Topology::kTorus ? "torus" : "mesh"},
            {"links_per_direction", params.network.links_per_direction},
            {"hops_per_cycle", params.network.hops_per_cycle}}},
          {"memory_pes",
           {{"count", params.memory.count},
            {"scratchpad_kib", params.memory.scratchpad_kib},
            {"bytes_per_cycle", params.memory.bytes_per_cycle},
            {"ports", params.memory.ports}}},
          {"config",
           {{"load_cycles", config.load_cycles ? nlohmann::ordered_json(*config.load_cycles)
                                               : nlohmann::ordered_json(nullptr)},
            {"bytes_per_pe", config.bytes_per_pe},
            {"bus_bytes_per_cycle", config.bus_bytes_per_cycle},
            {"contexts", config.contexts}}}};
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
