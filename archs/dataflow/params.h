#pragma once
// Parameters of a `kind: dataflow` unit: a spatial fabric (CGRA, Plasticine-style pattern
// units). A grid of compute PEs (ALU op set, registers, optional MAC; `lanes` SIMD lanes and
// `stages` pipelined issue slots per PE: 1 x 1 is a classic scalar CGRA, 16 x 6 a Plasticine
// PCU), a switch network (mesh or torus; links per direction, hops per cycle), memory PEs on the
// grid's edges with scratchpads, a configuration bus and a number of contexts. Model and
// sources: archs/dataflow/README.md.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::dataflow {

// ALU operations a PE may support (the `pe.alu_ops` vocabulary).
const std::vector<std::string>& alu_op_names();

struct PeParams {
  int64_t rows = 4;
  int64_t cols = 4;
  int64_t lanes = 1;      // SIMD lanes: one DFG node works on `lanes` elements per issue
  int64_t stages = 1;     // DFG nodes one PE issues per cycle (pipelined FU stages)
  int64_t registers = 8;  // per PE (per lane): operands held across iterations (weights)
  std::set<std::string> alu_ops;
  std::set<ir::DType> mac_dtypes;  // empty: no MAC (a multiply-accumulate takes mul + add)
  // Cycles from issue to result, by ALU op name or "mac"; 1 for any op not listed.
  std::map<std::string, int64_t> latency_cycles;
  // Published areas of a PE's parts the technology table has no entry for (0: not priced): its
  // input FIFOs and its control block (counters, state machines).
  double fifo_area_mm2 = 0.0;
  double control_area_mm2 = 0.0;

  int64_t count() const { return rows * cols; }
  bool has(const std::string& op) const { return alu_ops.count(op) > 0; }
  bool has_mac(ir::DType dtype) const { return mac_dtypes.count(dtype) > 0; }
  int64_t latency(const std::string& op) const;
};

enum class Topology { kMesh, kTorus };

// Where a value waits between its producer and its consumer: in the switches (HyCUBE's bypass
// crossbars, Plasticine's switch boxes: routing costs links only) or in the PEs on its way (a
// neighbour-to-neighbour CGRA such as ADRES: every PE a value passes through spends an issue slot
// on a route-through move, and the value crosses one PE per cycle).
enum class Routing { kSwitches, kThroughPes };

struct NetworkParams {
  Topology topology = Topology::kMesh;
  int64_t links_per_direction = 1;  // words per cycle each direction between neighbours
  int64_t hops_per_cycle = 1;       // switch hops a value crosses per cycle
  Routing routing = Routing::kSwitches;
  // Values of one producer a consumer can have queued on its way (switch and operand buffers):
  // the producer stalls when they are all taken (credit-based flow control).
  int64_t buffer_values = 16;
  // The whole switch network's published area (switches of every network with their links'
  // registers); it replaces the switch buffers' register-bit area. None: the buffers alone.
  std::optional<double> area_mm2;
};

// Memory PEs (Plasticine PMUs): scratchpads around the grid's edges that feed loads and take
// stores, with address generation for tiled and im2col access.
struct MemoryPeParams {
  int64_t count = 8;
  double scratchpad_kib = 64;
  int64_t bytes_per_cycle = 16;  // per memory PE, reads and writes together
  int64_t ports = 1;             // load/store streams one memory PE serves per cycle
  int64_t access_cycles = 1;     // scratchpad read latency
  // Published area of one memory PE's logic beside its scratchpad (address datapath, FIFOs,
  // registers, control); 0: not priced.
  double logic_area_mm2 = 0.0;
};

// Loading a configuration: either a fixed time, or bytes per used PE over a config bus.
struct ConfigParams {
  std::optional<int64_t> load_cycles;
  int64_t bytes_per_pe = 64;
  int64_t bus_bytes_per_cycle = 8;
  int64_t contexts = 1;               // configurations held at once
  int64_t context_switch_cycles = 0;  // switching to a resident context
};

struct DataflowParams {
  std::string name;
  ir::DType dtype = ir::DType::kFp32;
  PeParams pe;
  NetworkParams network;
  MemoryPeParams memory;
  ConfigParams config;
  // Published area of the fabric's DRAM interface (address generators, coalescing units);
  // 0: not priced.
  double dram_interface_area_mm2 = 0.0;
  uint64_t seed = 1;  // placement annealing
  std::optional<double> clock_ghz;

  // The type the fabric computes `op` in: the op's own (`dtype` where it names none); an 8- or
  // 4-bit format the PEs' MACs do not list is widened to `dtype` (fp32 where that is itself
  // narrow), and the report marks it converted.
  ir::DType run_dtype(const ir::Op& op) const;
  // Elements the compute PEs convert to `run` (or back) per cycle: one per PE lane, a
  // conversion being one ALU node of the PE.
  int64_t conversions_per_cycle() const { return pe.count() * pe.lanes; }
  double scratchpad_bytes() const;  // all memory PEs together
  // Cycles to load a configuration that uses `pes_used` compute and memory PEs.
  int64_t config_load_cycles(int64_t pes_used) const;
};

// The keys of a `kind: dataflow` unit: what parse_dataflow_params reads and `validate --describe
// dataflow` prints.
const KeyTable& dataflow_keys();

// Reads the keys of one `units[]` entry (name and kind already known) through dataflow_keys().
// Errors name the key.
DataflowParams parse_dataflow_params(KeyReader& unit, const std::string& unit_name);

}  // namespace polyarch::archs::dataflow
