#include "archs/mimd/params.h"

#include "archs/common_keys.h"
#include "base/error.h"

namespace polyarch::archs::mimd {

namespace {

constexpr int64_t kMaxCores = 1 << 16;
constexpr int64_t kMaxLanes = 1 << 12;
constexpr int64_t kMaxKib = int64_t{1} << 30;

CoreParams parse_core(MapReader& unit_reader) {
  CoreParams core;
  MapReader reader(unit_reader.required("core"));
  core.vector_lanes = reader.required_int("vector_lanes", 1, kMaxLanes);
  core.vector_units = reader.optional_int("vector_units", core.vector_units, 1, kMaxLanes);
  core.sfu_per_cycle = reader.optional_int("sfu_per_cycle", core.sfu_per_cycle, 1, kMaxLanes);
  core.local_kib = reader.required_int("local_kib", 1, kMaxKib);
  core.packed_narrow_types = reader.optional_bool("packed_narrow_types", core.packed_narrow_types);
  reader.finish();
  return core;
}

sim::NocSpec parse_noc(MapReader& unit_reader, int64_t nodes, int64_t& memory_ports) {
  sim::NocSpec noc;
  noc.nodes = nodes;
  const ConfigNode& node = unit_reader.required("noc");
  MapReader reader(node);
  const std::string topology = reader.required_enum("topology", {"mesh", "ring", "crossbar"});
  noc.topology = topology == "mesh"   ? sim::NocTopology::kMesh
                 : topology == "ring" ? sim::NocTopology::kRing
                                      : sim::NocTopology::kCrossbar;
  if (noc.topology == sim::NocTopology::kMesh) {
    noc.columns = reader.required_int("columns", 1, nodes);
    if (nodes % noc.columns != 0) {
      throw_bad_input(reader.required("columns").where(),
                      "mesh columns=" + std::to_string(noc.columns) +
                          " do not divide the core count " + std::to_string(nodes));
    }
  }
  noc.link_bytes_per_cycle = reader.required_int("link_bytes_per_cycle", 1, int64_t{1} << 20);
  noc.hop_latency_cycles = reader.optional_int("hop_latency_cycles", 1, 0, 1 << 20);
  memory_ports = reader.optional_int("memory_ports", 1, 1, nodes);
  reader.finish();
  return noc;
}

}  // namespace

int64_t MimdParams::core_elements_per_cycle(ir::DType operand_dtype) const {
  const int64_t bytes = ir::dtype_bytes(operand_dtype);
  const int64_t per_lane = core.packed_narrow_types && bytes < 4 ? 4 / bytes : 1;
  return core.vector_lanes * core.vector_units * per_lane;
}

int64_t MimdParams::port_node(int64_t port) const { return port * count / memory_ports; }

MimdParams parse_mimd_params(MapReader& unit_reader, const std::string& unit_name) {
  MimdParams params;
  params.name = unit_name;
  params.count = unit_reader.required_int("count", 1, kMaxCores);
  params.clock_ghz = optional_clock_key(unit_reader);
  params.dtype = optional_dtype_key(unit_reader, "dtype", params.dtype);
  params.core = parse_core(unit_reader);
  params.noc = parse_noc(unit_reader, params.count, params.memory_ports);
  params.barrier_cycles = unit_reader.optional_int("barrier_cycles", 0, 0, int64_t{1} << 30);
  params.dispatch_overhead_ns =
      unit_reader.optional_double("dispatch_overhead_ns", 0.0, 0.0, 1e9);
  return params;
}

}  // namespace polyarch::archs::mimd
