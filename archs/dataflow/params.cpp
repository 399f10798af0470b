#include "archs/dataflow/params.h"

#include <cmath>

#include "archs/common_keys.h"
#include "base/checked_math.h"

namespace polyarch::archs::dataflow {

const std::vector<std::string>& alu_op_names() {
  static const std::vector<std::string> names = {"add", "sub",    "mul", "max",  "min",   "abs",
                                                 "cmp", "select", "and", "or",   "xor",   "shift",
                                                 "div", "exp",    "log", "sqrt", "rsqrt", "tanh"};
  return names;
}

int64_t PeParams::latency(const std::string& op) const {
  auto found = latency_cycles.find(op);
  return found == latency_cycles.end() ? 1 : found->second;
}

double DataflowParams::scratchpad_bytes() const {
  return static_cast<double>(memory.count) * memory.scratchpad_kib * 1024.0;
}

int64_t DataflowParams::config_load_cycles(int64_t pes_used) const {
  if (config.load_cycles) return *config.load_cycles;
  return ceil_div(checked_mul(pes_used, config.bytes_per_pe, "config bytes"),
                  config.bus_bytes_per_cycle);
}

namespace {

constexpr int64_t kMaxGrid = 1 << 12;
constexpr int64_t kMaxCount = int64_t{1} << 20;

std::string scalar_item(const ConfigNode& item) {
  if (!item.is_scalar()) {
    throw_bad_input(item.where(), "expected a name, got " + item.describe_type());
  }
  return item.scalar();
}

std::set<std::string> parse_alu_ops(const ConfigNode& node) {
  if (!node.is_sequence() || node.items().empty()) {
    throw_bad_input(node.where(), "expected a non-empty list of ALU ops (" +
                                      std::to_string(alu_op_names().size()) + " known)");
  }
  std::set<std::string> ops;
  for (const ConfigNode& item : node.items()) {
    const std::string op = scalar_item(item);
    bool known = false;
    for (const std::string& name : alu_op_names()) known = known || name == op;
    if (!known) {
      throw_bad_input(item.where(), "unknown ALU op '" + op + "'; did you mean '" +
                                        nearest_spelling(op, alu_op_names()) + "'?");
    }
    if (!ops.insert(op).second) throw_bad_input(item.where(), "ALU op '" + op + "' listed twice");
  }
  return ops;
}

std::set<ir::DType> parse_mac(MapReader& pe_reader) {
  std::set<ir::DType> dtypes;
  const ConfigNode* mac = pe_reader.optional("mac");
  if (mac == nullptr || mac->is_null()) return dtypes;
  MapReader reader(*mac);
  const ConfigNode& list = reader.required("dtypes");
  if (!list.is_sequence() || list.items().empty()) {
    throw_bad_input(list.where(), "expected a non-empty list of dtypes");
  }
  for (const ConfigNode& item : list.items()) {
    const std::string name = scalar_item(item);
    const std::optional<ir::DType> dtype = ir::parse_dtype(name);
    if (!dtype) {
      throw_bad_input(item.where(), "unknown dtype '" + name + "'; did you mean '" +
                                        nearest_spelling(name, ir::dtype_names()) + "'?");
    }
    dtypes.insert(*dtype);
  }
  reader.finish();
  return dtypes;
}

std::map<std::string, int64_t> parse_latencies(MapReader& pe_reader, const PeParams& pe) {
  std::map<std::string, int64_t> latencies;
  const ConfigNode* node = pe_reader.optional("latency_cycles");
  if (node == nullptr) return latencies;
  MapReader reader(*node);
  for (const auto& [op, value] : node->entries()) {
    const bool known = pe.has(op) || (op == "mac" && !pe.mac_dtypes.empty());
    if (!known) {
      throw_bad_input(value.where(),
                      "latency for '" + op + "', which is neither in pe.alu_ops nor the MAC");
    }
    latencies[op] = reader.required_int(op, 1, 1 << 16);
  }
  reader.finish();
  return latencies;
}

PeParams parse_pe(MapReader& unit_reader) {
  PeParams pe;
  MapReader reader(unit_reader.required("pe"));
  pe.rows = reader.required_int("rows", 1, kMaxGrid);
  pe.cols = reader.required_int("cols", 1, kMaxGrid);
  pe.lanes = reader.optional_int("lanes", pe.lanes, 1, 1 << 12);
  pe.stages = reader.optional_int("stages", pe.stages, 1, 64);
  pe.registers = reader.optional_int("registers", pe.registers, 1, 1 << 16);
  pe.alu_ops = parse_alu_ops(reader.required("alu_ops"));
  pe.mac_dtypes = parse_mac(reader);
  pe.latency_cycles = parse_latencies(reader, pe);
  reader.finish();
  return pe;
}

NetworkParams parse_network(MapReader& unit_reader) {
  NetworkParams network;
  MapReader reader(unit_reader.required("network"));
  network.topology = reader.required_enum("topology", {"mesh", "torus"}) == "torus"
                         ? Topology::kTorus
                         : Topology::kMesh;
  network.links_per_direction = reader.optional_int("links_per_direction", 1, 1, 64);
  network.hops_per_cycle = reader.optional_int("hops_per_cycle", 1, 1, kMaxGrid);
  reader.finish();
  return network;
}

MemoryPeParams parse_memory(MapReader& unit_reader) {
  MemoryPeParams memory;
  MapReader reader(unit_reader.required("memory_pes"));
  memory.count = reader.required_int("count", 1, kMaxCount);
  memory.scratchpad_kib = reader.required_double("scratchpad_kib", 1.0 / 1024, 1e7);
  memory.bytes_per_cycle = reader.required_int("bytes_per_cycle", 1, 1 << 20);
  memory.ports = reader.optional_int("ports", memory.ports, 1, 64);
  memory.access_cycles = reader.optional_int("access_cycles", memory.access_cycles, 1, 1 << 12);
  reader.finish();
  return memory;
}

ConfigParams parse_config(MapReader& unit_reader) {
  ConfigParams config;
  const ConfigNode& node = unit_reader.required("config");
  MapReader reader(node);
  if (reader.has("load_cycles") &&
      (reader.has("bytes_per_pe") || reader.has("bus_bytes_per_cycle"))) {
    throw_bad_input(node.where(),
                    "give either load_cycles or bytes_per_pe with "
                    "bus_bytes_per_cycle, not both");
  }
  if (reader.has("load_cycles")) {
    config.load_cycles = reader.required_int("load_cycles", 0, int64_t{1} << 40);
  } else {
    config.bytes_per_pe = reader.required_int("bytes_per_pe", 0, 1 << 20);
    config.bus_bytes_per_cycle = reader.required_int("bus_bytes_per_cycle", 1, 1 << 20);
  }
  config.contexts = reader.optional_int("contexts", config.contexts, 1, 1 << 10);
  config.context_switch_cycles =
      reader.optional_int("context_switch_cycles", config.context_switch_cycles, 0, 1 << 20);
  reader.finish();
  return config;
}

}  // namespace

DataflowParams parse_dataflow_params(MapReader& unit_reader, const std::string& unit_name) {
  DataflowParams params;
  params.name = unit_name;
  params.dtype = optional_dtype_key(unit_reader, "dtype", params.dtype);
  params.pe = parse_pe(unit_reader);
  params.network = parse_network(unit_reader);
  params.memory = parse_memory(unit_reader);
  params.config = parse_config(unit_reader);
  params.seed = static_cast<uint64_t>(unit_reader.optional_int("seed", 1, 0, int64_t{1} << 62));
  params.clock_ghz = optional_clock_key(unit_reader);
  const bool streams = params.pe.has("add") || !params.pe.mac_dtypes.empty();
  if (!streams) {
    throw_bad_input(unit_reader.required("pe").where(),
                    "pe.alu_ops needs at least 'add' (or a MAC) to compute anything");
  }
  return params;
}

}  // namespace polyarch::archs::dataflow
