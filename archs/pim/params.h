#pragma once
// Parameters of a `kind: pim` unit: processing units (PUs) beside the banks of a DRAM whose
// organisation and timing come from a JEDEC preset (sim/memory/dram/presets.h). Each PU serves
// `banks_per_pu` banks of one pseudo-channel, has `lanes` SIMD lanes at `pu_clock_mhz`, a small
// register buffer for the broadcast input, and the element functions it implements. Model:
// archs/pim/README.md.
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "archs/pim/core_timing.h"
#include "base/error.h"
#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"
#include "sim/memory/dram/config.h"
#include "sim/memory/dram_spec.h"
#include "sim/memory/dram_view.h"

namespace polyarch::archs::pim {

enum class PimMode {
  kAllBank,  // one command drives every PU of a pseudo-channel in lockstep (HBM-PIM AB-PIM)
  kPerBank,  // each PU needs its own commands: the command bus serialises them
};

enum class Reduction {
  kHost,          // partial sums are read out and added by the host
  kChannelAdder,  // an adder per channel sums partials before they leave the device
};

// `memory: shared`: the PUs sit in the banks of the SoC's own JEDEC DRAM.
inline constexpr std::string_view kSharedMemory = "shared";

struct PimParams {
  std::string name;
  std::string memory_preset;   // e.g. "hbm2e_3200", or "shared"
  // The preset (its channels, times `devices`), or with `memory: shared` the SoC's DRAM.
  sim::dram::DramConfig dram;
  SourceLocation memory_where;        // the `memory` key, for errors found later
  SourceLocation banks_per_pu_where;  // the `banks_per_pu` key (`memory` where not written)
  int64_t devices = 1;         // stacks, chips or DIMMs
  int64_t banks_per_pu = 1;
  int64_t lanes = 16;  // SIMD lanes per PU, or with `pu: core` its programmable cores
  // With `pu: core`: each lane is a programmable in-order core with threads, a pipeline and a
  // DMA engine (core_timing.h) rather than a SIMD lane; unset for `pu: simd`.
  std::optional<PimCoreParams> core;
  double pu_clock_mhz = 0;  // PU clock; 0 = the DRAM command clock
  ir::DType dtype = ir::DType::kFp16;
  std::set<std::string> functions = {"add", "mul", "relu"};  // elementwise functions of a PU
  int64_t register_bytes = 256;  // per PU: the slice of the input vector(s) it holds at once
  int64_t max_batch = 16;        // GEMM rows (M) and attention queries per head it takes
  // Shares of the technology table's all-in DRAM energy per bit (dram_pj_per_bit) that go to
  // row activation, the array's column access and the external I/O. An assumption (equal
  // thirds) until a per-standard breakdown is in the technology tables; override per arch.
  double activation_share = 1.0 / 3.0;
  double core_share = 1.0 / 3.0;
  double io_share = 1.0 / 3.0;
  PimMode mode = PimMode::kAllBank;
  Reduction reduction = Reduction::kHost;
  // With `memory: shared`: where the DRAM controllers may turn from the PUs' work to host
  // traffic waiting for the same banks: only once the op's streams are done (`preemption: op`,
  // as a PIM runtime that holds the channel for a kernel), or after every row of a PU's banks
  // (`row`, a controller arbitrating between the two).
  bool host_waits_for_op = true;
  // The host's path to the DRAM (the SoC's memory, as estimates see it), over which inputs are
  // broadcast and results read back; unset (0 B/s) before the SoC binds it: then the device's
  // own bus, one burst per tBL per pseudo-channel.
  sim::DramView external;

  int64_t pseudo_channels() const;  // all devices
  int64_t pus_per_pseudo_channel() const;
  int64_t pu_count() const;
  // PU cycles per DRAM command-clock cycle (pu_clock / dram clock).
  double pu_cycles_per_dram_cycle() const;
  bool implements(const std::string& fn) const { return functions.count(fn) > 0; }
  bool shares_soc_memory() const { return memory_preset == kSharedMemory; }
};

// The keys of a `kind: pim` unit: what parse_pim_params reads and `validate --describe pim`
// prints.
const KeyTable& pim_keys();

// Reads the keys of one `units[]` entry (name and kind already known) through pim_keys().
PimParams parse_pim_params(KeyReader& unit, const std::string& unit_name);

// Takes the path to the SoC's DRAM, over which the host sends inputs and reads results; with
// `memory: shared` also the SoC's DRAM as the PUs' (bad input, naming the key, unless it is in
// JEDEC form or when banks_per_pu does not divide its banks).
void bind_soc_memory(PimParams& params, const sim::DramSpec& soc_dram,
                     const sim::DramView& external);

}  // namespace polyarch::archs::pim
