#include "archs/mimd/kind.h"

#include "archs/mimd/energy.h"
#include "archs/mimd/mapper.h"
#include "archs/mimd/mimd_space.h"
#include "archs/mimd/module.h"

namespace polyarch::archs::mimd {

bool MimdUnitConfig::supports(const ir::Op& op) const { return mimd_supports(op); }

sim::UnitFactory MimdUnitConfig::factory(double soc_clock_ghz) const {
  return mimd_unit_factory(params_, soc_clock_ghz, decisions_);
}

nlohmann::ordered_json MimdUnitConfig::describe() const {
  return {{"name", params_.name},
          {"kind", "mimd"},
          {"count", params_.count},
          {"clock_ghz", params_.clock_ghz ? nlohmann::ordered_json(*params_.clock_ghz)
                                          : nlohmann::ordered_json(nullptr)},
          {"dtype", ir::dtype_name(params_.dtype)},
          {"core",
           {{"vector_lanes", params_.core.vector_lanes},
            {"vector_units", params_.core.vector_units},
            {"sfu_per_cycle", params_.core.sfu_per_cycle},
            {"local_kib", params_.core.local_kib},
            {"packed_narrow_types", params_.core.packed_narrow_types}}},
          {"noc",
           {{"topology", sim::noc_topology_name(params_.noc.topology)},
            {"columns", params_.noc.columns},
            {"link_bytes_per_cycle", params_.noc.link_bytes_per_cycle},
            {"hop_latency_cycles", params_.noc.hop_latency_cycles},
            {"memory_ports", params_.memory_ports}}},
          {"barrier_cycles", params_.barrier_cycles},
          {"dispatch_overhead_ns", params_.dispatch_overhead_ns}};
}

std::optional<double> MimdUnitConfig::estimate_seconds(const ir::Op& op,
                                                      const MemoryContext& memory,
                                                      double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
  const MimdMemoryView view =
      sim::memory_view(memory.dram_bytes_per_second, memory.dram_latency_s, clock_ghz);
  const MimdPlan plan = plan_for_run(params_, op, view, clock_ghz, decisions_.get());
  return static_cast<double>(estimate_cycles(params_, plan, view)) / (clock_ghz * 1e9);
}

std::optional<MappingQuery> MimdUnitConfig::mapping_query(const ir::Op& op,
                                                          const MemoryContext& memory,
                                                          double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
  return generic_query(
      mimd_mapping_query(params_, op, memory.view(clock_ghz), clock_ghz, mapping_energy()));
}

void MimdUnitConfig::use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
  decisions_ = std::make_shared<UnitSearch>(std::move(policy), describe().dump(), mapping_energy());
}

std::optional<sim::EnergyByAction> MimdUnitConfig::op_energy(
    const sim::OpResult& op, const sim::EnergyContext& context) const {
  return mimd_op_energy(params_, op, context);
}

std::optional<double> MimdUnitConfig::area_mm2(const sim::TechTable& tech) const {
  return mimd_area_mm2(params_, tech);
}

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name) {
  return std::make_unique<MimdUnitConfig>(parse_mimd_params(unit_reader, name));
}

}  // namespace polyarch::archs::mimd
