#include "archs/dataflow/kind.h"

#include "archs/dataflow/cost_model.h"
#include "archs/dataflow/dataflow_space.h"
#include "archs/dataflow/energy.h"
#include "archs/dataflow/module.h"
#include "sim/memory/memory_view.h"

namespace polyarch::archs::dataflow {

bool DataflowUnitConfig::supports(const ir::Op& op) const {
  return unsupported_reason(params_, op).empty();
}

sim::UnitFactory DataflowUnitConfig::factory(double soc_clock_ghz) const {
  return dataflow_unit_factory(params_, soc_clock_ghz, cache_, decisions_);
}

nlohmann::ordered_json DataflowUnitConfig::describe() const {
  nlohmann::ordered_json alu_ops = nlohmann::ordered_json::array();
  for (const std::string& op : params_.pe.alu_ops) alu_ops.push_back(op);
  nlohmann::ordered_json mac = nlohmann::ordered_json::array();
  for (ir::DType dtype : params_.pe.mac_dtypes) mac.push_back(std::string(ir::dtype_name(dtype)));
  const ConfigParams& config = params_.config;
  return {{"name", params_.name},
          {"kind", "dataflow"},
          {"clock_ghz", params_.clock_ghz ? nlohmann::ordered_json(*params_.clock_ghz)
                                          : nlohmann::ordered_json(nullptr)},
          {"dtype", ir::dtype_name(params_.dtype)},
          {"pe",
           {{"rows", params_.pe.rows},
            {"cols", params_.pe.cols},
            {"lanes", params_.pe.lanes},
            {"stages", params_.pe.stages},
            {"registers", params_.pe.registers},
            {"alu_ops", alu_ops},
            {"mac_dtypes", mac}}},
          {"network",
           {{"topology", params_.network.topology == Topology::kTorus ? "torus" : "mesh"},
            {"links_per_direction", params_.network.links_per_direction},
            {"hops_per_cycle", params_.network.hops_per_cycle}}},
          {"memory_pes",
           {{"count", params_.memory.count},
            {"scratchpad_kib", params_.memory.scratchpad_kib},
            {"bytes_per_cycle", params_.memory.bytes_per_cycle},
            {"ports", params_.memory.ports}}},
          {"config",
           {{"load_cycles", config.load_cycles ? nlohmann::ordered_json(*config.load_cycles)
                                               : nlohmann::ordered_json(nullptr)},
            {"bytes_per_pe", config.bytes_per_pe},
            {"bus_bytes_per_cycle", config.bus_bytes_per_cycle},
            {"contexts", config.contexts}}}};
}

std::optional<double> DataflowUnitConfig::estimate_seconds(const ir::Op& op,
                                                           const MemoryContext& memory,
                                                           double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
  const sim::MemoryView view =
      sim::memory_view(memory.dram_bytes_per_second, memory.dram_latency_s, clock_ghz);
  const DataflowPlan plan = plan_for_run(params_, op, cache_, view, clock_ghz, decisions_.get());
  return static_cast<double>(
             estimate_cycles(plan, view.dram_bytes_per_cycle, view.dram_latency_cycles)) /
         (clock_ghz * 1e9);
}

std::optional<MappingQuery> DataflowUnitConfig::mapping_query(const ir::Op& op,
                                                              const MemoryContext& memory,
                                                              double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
  return generic_query(dataflow_mapping_query(params_, op, cache_, memory.view(clock_ghz),
                                              clock_ghz, mapping_energy()));
}

void DataflowUnitConfig::use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
  decisions_ = std::make_shared<UnitSearch>(std::move(policy), describe().dump(), mapping_energy());
}

std::optional<sim::EnergyByAction> DataflowUnitConfig::op_energy(
    const sim::OpResult& op, const sim::EnergyContext& context) const {
  return dataflow_op_energy(params_, op, context);
}

std::optional<double> DataflowUnitConfig::area_mm2(const sim::TechTable& tech) const {
  return dataflow_area_mm2(params_, tech);
}

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name) {
  return std::make_unique<DataflowUnitConfig>(parse_dataflow_params(unit_reader, name));
}

}  // namespace polyarch::archs::dataflow
