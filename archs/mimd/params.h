#pragma once
// Parameters of a `kind: mimd` unit: `count` independent cores, each running its own command
// stream on its vector units and private memory, joined by a network-on-chip to each other and
// to the memory ports that lead to the SoC's DRAM. Equations: archs/mimd/README.md.
#include <cstdint>
#include <optional>
#include <string>

#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"
#include "sim/noc/noc.h"

namespace polyarch::archs::mimd {

struct CoreParams {
  int64_t vector_lanes = 16;        // 32-bit lanes per vector unit (16 = 512-bit vectors)
  int64_t vector_units = 2;         // vector FMA pipes issuing each cycle
  int64_t sfu_per_cycle = 1;        // transcendental results per cycle (vectorised approximations)
  int64_t local_kib = 1024;         // private memory (scratchpad or private cache) per core
  bool packed_narrow_types = true;  // 16-bit and 8-bit types pack 2 and 4 per lane
  // Memory-level parallelism: the DRAM lines one core keeps in flight (its L2 miss queue, which
  // hardware prefetchers fill on a stream), 0 for no bound (a scratchpad core whose DMA engine
  // streams at its link's rate); the line size; and the latency of one line from DRAM as the
  // core sees it (nullopt: the SoC's DRAM latency). Little's law bounds the core's DRAM
  // bandwidth by outstanding_lines x line_bytes / memory_latency.
  int64_t outstanding_lines = 0;
  int64_t line_bytes = 64;
  std::optional<double> memory_latency_ns;
  // A write-back, write-allocate cache: a store to a line the core does not hold reads the
  // line from DRAM first (false: a scratchpad, or streaming stores that bypass the cache).
  bool write_allocate = false;
};

struct MimdParams {
  std::string name;
  int64_t count = 1;
  std::optional<double> clock_ghz;  // nullopt = the SoC clock
  ir::DType dtype = ir::DType::kFp32;
  CoreParams core;
  sim::NocSpec noc;                 // nodes = count
  int64_t memory_ports = 1;         // NoC nodes attached to DRAM, spread evenly over the nodes
  int64_t barrier_cycles = 0;       // the cores' synchronisation at the end of an op
  double dispatch_overhead_ns = 0;  // starting the op's command streams

  // The type the cores compute `op` in: the op's own (`dtype` where it names none); an 8- or
  // 4-bit format, which no modelled core computes in, is widened to `dtype` (fp32 where that is
  // itself narrow), and the report marks it converted.
  ir::DType run_dtype(const ir::Op& op) const;
  // Elements all cores convert to `run` (or back) per cycle: one per vector lane, a conversion
  // being one lane instruction (x86 VCVTPH2PS, Arm FCVTL widen a register of them at a time).
  int64_t conversions_per_cycle() const;
  // Multiply-accumulates (or element operations) per cycle of one core for `dtype`.
  int64_t core_elements_per_cycle(ir::DType dtype) const;
  // The DRAM bytes one core can move per cycle of a `clock_ghz` clock by Little's law over its
  // outstanding lines; `dram_latency_cycles` (the SoC's, in that clock) stands in for an unset
  // core.memory_latency_ns. 0 where core.outstanding_lines is 0 (no bound).
  double core_miss_bytes_per_cycle(double clock_ghz, int64_t dram_latency_cycles) const;
  // The NoC node of memory port `port` and the port nearest to `node` (fewest hops).
  int64_t port_node(int64_t port) const;
};

// The keys of a `kind: mimd` unit: what parse_mimd_params reads and `validate --describe mimd`
// prints.
const KeyTable& mimd_keys();

// Reads the keys of one `units[]` entry (name and kind already known) through mimd_keys().
MimdParams parse_mimd_params(KeyReader& unit, const std::string& unit_name);

}  // namespace polyarch::archs::mimd
