#include "archs/mimd/kind.h"

#include "archs/mimd/energy.h"
#include "archs/mimd/mapper.h"
#include "archs/mimd/mimd_space.h"
#include "archs/mimd/module.h"

namespace polyarch::archs::mimd {

sim::UnitFactory MimdKind::factory(const KindUnit<MimdKind>& unit, double soc_clock_ghz) {
  return mimd_unit_factory(unit.params, soc_clock_ghz, unit.search);
}

nlohmann::ordered_json MimdKind::describe(const Params& params) {
  return {{"name", params.name},
          {"kind", "mimd"},
          {"count", params.count},
          {"clock_ghz", params.clock_ghz ? nlohmann::ordered_json(*params.clock_ghz)
                                         : nlohmann::ordered_json(nullptr)},
          {"dtype", ir::dtype_name(params.dtype)},
          {"core",
           {{"vector_lanes", params.core.vector_lanes},
            {"vector_units", params.core.vector_units},
            {"sfu_per_cycle", params.core.sfu_per_cycle},
            {"local_kib", params.core.local_kib},
            {"packed_narrow_types", params.core.packed_narrow_types}}},
          {"noc",
           {{"topology", sim::noc_topology_name(params.noc.topology)},
            {"columns", params.noc.columns},
            {"link_bytes_per_cycle", params.noc.link_bytes_per_cycle},
            {"hop_latency_cycles", params.noc.hop_latency_cycles},
            {"memory_ports", params.memory_ports}}},
          {"barrier_cycles", params.barrier_cycles},
          {"dispatch_overhead_ns", params.dispatch_overhead_ns}};
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
