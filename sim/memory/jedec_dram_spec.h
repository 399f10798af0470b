#pragma once
// An arch file's `memory.dram` in JEDEC form (the `dram:` map of dram/dram_yaml.h) as the
// DramSpec a run uses: the description itself for the jedec backend, and the peak bandwidth,
// the measured streaming efficiency and the closed-bank read latency that the units' estimates
// (and a `model: simple` run) see. SystemC-free.
#include "base/config_tree.h"
#include "sim/memory/dram_spec.h"

namespace polyarch::sim {

// Whether a `memory.dram` map is in JEDEC form: it names a standard or a preset, or gives an
// organization, a controller or a timing map (the simple form's `timing` is a preset name).
bool is_jedec_dram_map(const ConfigNode& node);

// Reads the JEDEC form; bad input as read_dram_map reports it.
DramSpec read_jedec_dram_spec(const ConfigNode& node);

}  // namespace polyarch::sim
