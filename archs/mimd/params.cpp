#include "archs/mimd/params.h"

#include <algorithm>
#include <string_view>

#include "archs/common_keys.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/key_specs.h"

namespace polyarch::archs::mimd {

namespace {

constexpr int64_t kMaxCores = 1 << 16;
constexpr int64_t kMaxLanes = 1 << 12;
constexpr int64_t kMaxKib = int64_t{1} << 30;

CoreParams parse_core(KeyReader& unit) {
  CoreParams core;
  KeyReader reader = unit.nested("core");
  core.vector_lanes = reader.read_int("vector_lanes");
  core.vector_units = reader.read_int("vector_units");
  core.sfu_per_cycle = reader.read_int("sfu_per_cycle");
  core.local_kib = reader.read_int("local_kib");
  core.packed_narrow_types = reader.read_bool("packed_narrow_types");
  core.outstanding_lines = reader.read_int("outstanding_lines");
  core.line_bytes = reader.read_int("line_bytes");
  core.memory_latency_ns = reader.read_optional_number("memory_latency_ns");
  // A line's size and latency serve only the miss-queue bound: without one, a size other than
  // the default or a latency would change nothing.
  if (core.outstanding_lines == 0) {
    const bool line_default = core.line_bytes == CoreParams{}.line_bytes;
    for (const char* key : {"line_bytes", "memory_latency_ns"}) {
      const bool inert = key == std::string_view("line_bytes") ? !line_default
                                                               : core.memory_latency_ns.has_value();
      if (const ConfigNode* node = reader.map_reader().optional(key); node != nullptr && inert) {
        throw_bad_input(node->where(), std::string("core.") + key +
                                           " sets the miss-queue bound, which "
                                           "core.outstanding_lines: 0 (the default) leaves out");
      }
    }
  }
  core.write_allocate = reader.read_bool("write_allocate");
  reader.finish();
  return core;
}

sim::NocSpec parse_noc(KeyReader& unit, int64_t nodes, int64_t& memory_ports) {
  sim::NocSpec noc;
  noc.nodes = nodes;
  KeyReader reader = unit.nested("noc");
  const std::string topology = reader.read_choice("topology");
  noc.topology = topology == "mesh"   ? sim::NocTopology::kMesh
                 : topology == "ring" ? sim::NocTopology::kRing
                                      : sim::NocTopology::kCrossbar;
  if (noc.topology == sim::NocTopology::kMesh) {
    noc.columns = reader.read_int_at_most("columns", nodes);
    if (nodes % noc.columns != 0) {
      throw_bad_input(reader.map_reader().required("columns").where(),
                      "mesh columns=" + std::to_string(noc.columns) +
                          " do not divide the core count " + std::to_string(nodes));
    }
  } else {
    reader.note("columns", noc.columns);  // a ring or crossbar has no columns to write
  }
  noc.link_bytes_per_cycle = reader.read_int("link_bytes_per_cycle");
  noc.hop_latency_cycles = reader.read_int("hop_latency_cycles");
  memory_ports = reader.read_int_at_most("memory_ports", nodes);
  reader.finish();
  return noc;
}

}  // namespace

ir::DType MimdParams::run_dtype(const ir::Op& op) const {
  const ir::DType given = op.dtype.value_or(dtype);
  if (!ir::is_narrow(given)) return given;
  return ir::is_narrow(dtype) ? ir::DType::kFp32 : dtype;
}

int64_t MimdParams::conversions_per_cycle() const {
  return checked_mul(count, core.vector_lanes * core.vector_units, "conversion lanes");
}

int64_t MimdParams::core_elements_per_cycle(ir::DType operand_dtype) const {
  const int64_t bytes = ir::dtype_bytes(operand_dtype);
  const int64_t per_lane = core.packed_narrow_types && bytes < 4 ? 4 / bytes : 1;
  return core.vector_lanes * core.vector_units * per_lane;
}

double MimdParams::core_miss_bytes_per_cycle(double clock_ghz, int64_t dram_latency_cycles) const {
  if (core.outstanding_lines <= 0) return 0.0;
  const double latency_cycles = core.memory_latency_ns ? *core.memory_latency_ns * clock_ghz
                                                       : static_cast<double>(dram_latency_cycles);
  // A latency under one cycle would make the bound meaningless rather than tight.
  return static_cast<double>(core.outstanding_lines * core.line_bytes) /
         std::max(1.0, latency_cycles);
}

int64_t MimdParams::port_node(int64_t port) const { return port * count / memory_ports; }

const KeyTable& mimd_keys() {
  static const KeyTable table = [] {
    const MimdParams params;
    const CoreParams& core = params.core;
    return unit_key_table(
        "mimd", "independent vector cores with private memory on a network-on-chip",
        {int_key("count", "cores", kRequired, 1, kMaxCores, "cores (NoC nodes)"),
         clock_key(),
         dtype_key("dtype", params.dtype, "operand type"),
         map_key("core", kRequired, "one core"),
         int_key("core.vector_lanes", "lanes", kRequired, 1, kMaxLanes,
                 "32-bit lanes per vector unit (16 = 512-bit vectors)"),
         int_key("core.vector_units", "", default_text(core.vector_units), 1, kMaxLanes,
                 "vector FMA pipes issuing each cycle"),
         int_key("core.sfu_per_cycle", "1/cycle", default_text(core.sfu_per_cycle), 1, kMaxLanes,
                 "transcendental results per cycle"),
         int_key("core.local_kib", "KiB", kRequired, 1, kMaxKib,
                 "private memory (scratchpad or private cache)"),
         bool_key("core.packed_narrow_types", core.packed_narrow_types,
                  "16-bit and 8-bit types pack 2 and 4 per lane"),
         int_key("core.outstanding_lines", "lines", default_text(core.outstanding_lines), 0,
                 1 << 16,
                 "DRAM lines one core keeps in flight (its L2 miss queue); bounds its DRAM "
                 "bandwidth to lines x line_bytes / memory latency; 0: no bound"),
         int_key("core.line_bytes", "B", default_text(core.line_bytes), 1, 1 << 16,
                 "bytes per line miss (with outstanding_lines > 0)"),
         number_key("core.memory_latency_ns", "ns", "the SoC's DRAM latency_ns", 1.0, 1e6,
                    "a line's latency from DRAM as the core sees it, for the bound above (with "
                    "outstanding_lines > 0)"),
         bool_key("core.write_allocate", core.write_allocate,
                  "stores read their lines from DRAM first (write-back, write-allocate cache)"),
         map_key("noc", kRequired, "the network-on-chip"),
         choice_key("noc.topology", kRequired, {"mesh", "ring", "crossbar"}, "NoC topology"),
         int_key("noc.columns", "", kRequired, 1, kMaxCores,
                 "mesh only: columns, dividing the core count"),
         int_key("noc.link_bytes_per_cycle", "B/cycle", kRequired, 1, int64_t{1} << 20,
                 "bytes a link carries per cycle"),
         int_key("noc.hop_latency_cycles", "cycles", "1", 0, 1 << 20, "cycles per router hop"),
         int_key("noc.memory_ports", "", default_text(params.memory_ports), 1, kMaxCores,
                 "NoC nodes attached to DRAM (at most the core count)"),
         int_key("barrier_cycles", "cycles", default_text(params.barrier_cycles), 0,
                 int64_t{1} << 30, "the cores' synchronisation at the end of an op"),
         number_key("dispatch_overhead_ns", "ns", default_text(params.dispatch_overhead_ns), 0.0,
                    1e9, "starting the op's command streams")});
  }();
  return table;
}

MimdParams parse_mimd_params(KeyReader& unit, const std::string& unit_name) {
  MimdParams params;
  params.name = unit_name;
  params.count = unit.read_int("count");
  params.clock_ghz = unit.read_optional_number("clock_ghz");
  params.dtype = read_dtype(unit, "dtype");
  params.core = parse_core(unit);
  params.noc = parse_noc(unit, params.count, params.memory_ports);
  params.barrier_cycles = unit.read_int("barrier_cycles");
  params.dispatch_overhead_ns = unit.read_number("dispatch_overhead_ns");
  return params;
}

}  // namespace polyarch::archs::mimd
