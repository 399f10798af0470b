#include "archs/dataflow/params.h"

#include <cmath>

#include "archs/common_keys.h"
#include "base/checked_math.h"
#include "base/key_specs.h"

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

ir::DType DataflowParams::run_dtype(const ir::Op& op) const {
  const ir::DType given = op.dtype.value_or(dtype);
  if (!ir::is_narrow(given) || pe.has_mac(given)) return given;
  return ir::is_narrow(dtype) ? ir::DType::kFp32 : dtype;
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

std::set<ir::DType> parse_mac(KeyReader& pe_reader) {
  std::set<ir::DType> dtypes;
  const ConfigNode* mac = pe_reader.map_reader().optional("mac");
  if (mac != nullptr && !mac->is_null()) {
    KeyReader reader = pe_reader.nested("mac");
    const ConfigNode& list = reader.map_reader().required("dtypes");
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
  }
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (ir::DType dtype : dtypes) names.push_back(std::string(ir::dtype_name(dtype)));
  pe_reader.note("mac.dtypes", std::move(names));  // none: a MAC takes mul + add
  return dtypes;
}

std::map<std::string, int64_t> parse_latencies(KeyReader& pe_reader, const PeParams& pe) {
  std::map<std::string, int64_t> latencies;
  if (const ConfigNode* node = pe_reader.map_reader().optional("latency_cycles")) {
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
  }
  pe_reader.note("latency_cycles", latencies);
  return latencies;
}

PeParams parse_pe(KeyReader& unit) {
  PeParams pe;
  KeyReader reader = unit.nested("pe");
  pe.rows = reader.read_int("rows");
  pe.cols = reader.read_int("cols");
  pe.lanes = reader.read_int("lanes");
  pe.stages = reader.read_int("stages");
  pe.registers = reader.read_int("registers");
  pe.alu_ops = parse_alu_ops(reader.map_reader().required("alu_ops"));
  reader.note("alu_ops", pe.alu_ops);
  pe.mac_dtypes = parse_mac(reader);
  pe.latency_cycles = parse_latencies(reader, pe);
  pe.fifo_area_mm2 = reader.read_number("fifo_area_mm2");
  pe.control_area_mm2 = reader.read_number("control_area_mm2");
  reader.finish();
  return pe;
}

NetworkParams parse_network(KeyReader& unit) {
  NetworkParams network;
  KeyReader reader = unit.nested("network");
  network.topology = reader.read_choice("topology") == "torus" ? Topology::kTorus : Topology::kMesh;
  network.links_per_direction = reader.read_int("links_per_direction");
  network.hops_per_cycle = reader.read_int("hops_per_cycle");
  network.routing =
      reader.read_choice("routing") == "through_pes" ? Routing::kThroughPes : Routing::kSwitches;
  if (network.routing == Routing::kThroughPes && network.hops_per_cycle != 1) {
    throw_bad_input(
        reader.map_reader().required("hops_per_cycle").where(),
        "routing: through_pes moves a value one PE per cycle; hops_per_cycle must be 1");
  }
  network.buffer_values = reader.read_int("buffer_values");
  network.area_mm2 = reader.read_optional_number("area_mm2");
  reader.finish();
  return network;
}

MemoryPeParams parse_memory(KeyReader& unit) {
  MemoryPeParams memory;
  KeyReader reader = unit.nested("memory_pes");
  memory.count = reader.read_int("count");
  memory.scratchpad_kib = reader.read_number("scratchpad_kib");
  memory.bytes_per_cycle = reader.read_int("bytes_per_cycle");
  memory.ports = reader.read_int("ports");
  memory.access_cycles = reader.read_int("access_cycles");
  memory.logic_area_mm2 = reader.read_number("logic_area_mm2");
  reader.finish();
  return memory;
}

ConfigParams parse_config(KeyReader& unit) {
  ConfigParams config;
  KeyReader reader = unit.nested("config");
  MapReader& map = reader.map_reader();
  if (map.has("load_cycles") && (map.has("bytes_per_pe") || map.has("bus_bytes_per_cycle"))) {
    throw_bad_input(map.node().where(),
                    "give either load_cycles or bytes_per_pe with "
                    "bus_bytes_per_cycle, not both");
  }
  config.load_cycles = reader.read_optional_int("load_cycles");
  if (config.load_cycles) {
    // A fixed load time leaves the bus keys out; they are described at their defaults.
    reader.note("bytes_per_pe", config.bytes_per_pe);
    reader.note("bus_bytes_per_cycle", config.bus_bytes_per_cycle);
  } else {
    config.bytes_per_pe = reader.read_int("bytes_per_pe");
    config.bus_bytes_per_cycle = reader.read_int("bus_bytes_per_cycle");
  }
  config.contexts = reader.read_int("contexts");
  config.context_switch_cycles = reader.read_int("context_switch_cycles");
  reader.finish();
  return config;
}

}  // namespace

const KeyTable& dataflow_keys() {
  static const KeyTable table = [] {
    const DataflowParams params;
    const PeParams& pe = params.pe;
    const MemoryPeParams& memory = params.memory;
    const ConfigParams& config = params.config;
    return unit_key_table(
        "dataflow", "a spatial fabric (CGRA, Plasticine-style pattern units) of PEs on a network",
        {clock_key(),
         dtype_key("dtype", params.dtype, "operand type"),
         map_key("pe", kRequired, "the grid of compute PEs"),
         int_key("pe.rows", "PEs", kRequired, 1, kMaxGrid, "PE rows of the grid"),
         int_key("pe.cols", "PEs", kRequired, 1, kMaxGrid, "PE columns of the grid"),
         int_key("pe.lanes", "lanes", default_text(pe.lanes), 1, 1 << 12,
                 "SIMD lanes: elements one DFG node works on per issue"),
         int_key("pe.stages", "", default_text(pe.stages), 1, 64,
                 "DFG nodes one PE issues per cycle (pipelined FU stages)"),
         int_key("pe.registers", "", default_text(pe.registers), 1, 1 << 16,
                 "per PE (per lane): operands held across iterations"),
         list_key("pe.alu_ops", kRequired, "ALU ops a PE supports (add, mul, exp, ...)"),
         map_key("pe.mac", "none", "a multiply-accumulate unit (without: mul + add)"),
         list_key("pe.mac.dtypes", kRequired, "operand types the MAC takes"),
         map_key("pe.latency_cycles", "{}", "cycles from issue to result by ALU op or mac; 1 else"),
         number_key("pe.fifo_area_mm2", "mm^2", default_text(pe.fifo_area_mm2), 0.0, 1e3,
                    "one PE's input FIFOs, a published area (0: not priced)"),
         number_key("pe.control_area_mm2", "mm^2", default_text(pe.control_area_mm2), 0.0, 1e3,
                    "one PE's control block and counters, a published area (0: not priced)"),
         map_key("network", kRequired, "the switch network between PEs"),
         choice_key("network.topology", kRequired, {"mesh", "torus"}, "network topology"),
         int_key("network.links_per_direction", "words/cycle",
                 default_text(params.network.links_per_direction), 1, 64,
                 "each direction between neighbours"),
         int_key("network.hops_per_cycle", "hops", default_text(params.network.hops_per_cycle), 1,
                 kMaxGrid, "switch hops a value crosses per cycle"),
         choice_key("network.routing", "switches", {"switches", "through_pes"},
                    "values wait in switches (bypass network) or pass through PEs, each spending "
                    "an issue slot on a move"),
         int_key("network.buffer_values", "values", default_text(params.network.buffer_values), 1,
                 1 << 16, "values of one producer queued towards one consumer before it stalls"),
         number_key("network.area_mm2", "mm^2", "none", 0.0, 1e5,
                    "the whole switch network, a published area (replaces the switch buffers' "
                    "register bits)"),
         map_key("memory_pes", kRequired, "scratchpads on the grid's edges (Plasticine PMUs)"),
         int_key("memory_pes.count", "", kRequired, 1, kMaxCount, "memory PEs"),
         number_key("memory_pes.scratchpad_kib", "KiB", kRequired, 1.0 / 1024, 1e7,
                    "scratchpad per memory PE"),
         int_key("memory_pes.bytes_per_cycle", "B/cycle", kRequired, 1, 1 << 20,
                 "per memory PE, reads and writes together"),
         int_key("memory_pes.ports", "", default_text(memory.ports), 1, 64,
                 "load/store streams one memory PE serves per cycle"),
         int_key("memory_pes.access_cycles", "cycles", default_text(memory.access_cycles), 1,
                 1 << 12, "scratchpad read latency"),
         number_key("memory_pes.logic_area_mm2", "mm^2", default_text(memory.logic_area_mm2),
                    0.0, 1e3,
                    "one memory PE's address datapath, FIFOs and control beside the scratchpad, "
                    "a published area (0: not priced)"),
         map_key("config", kRequired, "loading a configuration: a fixed time or a config bus"),
         int_key("config.load_cycles", "cycles", "none", 0, int64_t{1} << 40,
                 "a fixed load time, instead of the two bus keys"),
         int_key("config.bytes_per_pe", "B", kRequired, 0, 1 << 20,
                 "configuration per used PE (without load_cycles)"),
         int_key("config.bus_bytes_per_cycle", "B/cycle", kRequired, 1, 1 << 20,
                 "config bus width (without load_cycles)"),
         int_key("config.contexts", "", default_text(config.contexts), 1, 1 << 10,
                 "configurations held at once"),
         int_key("config.context_switch_cycles", "cycles",
                 default_text(config.context_switch_cycles), 0, 1 << 20,
                 "switching to a resident context"),
         number_key("dram_interface_area_mm2", "mm^2", default_text(params.dram_interface_area_mm2),
                    0.0, 1e5,
                    "address generators and coalescing units to DRAM, a published area (0: not "
                    "priced)"),
         int_key("seed", "", default_text(static_cast<int64_t>(params.seed)), 0, int64_t{1} << 62,
                 "placement annealing seed")});
  }();
  return table;
}

DataflowParams parse_dataflow_params(KeyReader& unit, const std::string& unit_name) {
  DataflowParams params;
  params.name = unit_name;
  params.dtype = read_dtype(unit, "dtype");
  params.pe = parse_pe(unit);
  params.network = parse_network(unit);
  params.memory = parse_memory(unit);
  params.config = parse_config(unit);
  params.dram_interface_area_mm2 = unit.read_number("dram_interface_area_mm2");
  params.seed = static_cast<uint64_t>(unit.read_int("seed"));
  params.clock_ghz = unit.read_optional_number("clock_ghz");
  const bool streams = params.pe.has("add") || !params.pe.mac_dtypes.empty();
  if (!streams) {
    throw_bad_input(unit.map_reader().required("pe").where(),
                    "pe.alu_ops needs at least 'add' (or a MAC) to compute anything");
  }
  return params;
}

}  // namespace polyarch::archs::dataflow
