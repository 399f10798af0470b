#pragma once
// The `dram:` map of a YAML file (alone, or as an arch file's `memory.dram`) in JEDEC names,
// each key overriding the preset it starts from:
//   dram:
//     model: jedec
//     standard: ddr4
//     preset: ddr4_3200
//     organization: {channels: 1, ranks: 1, bank_groups: 4, ...}
//     timing: {tCK_ns: 0.625, CL: 22, CWL: 16, tRCD: 22, ...}      # in tCK
//     controller: {address_mapping: rochrababgco, page_policy: open, ...}
// Keys are declared once in dram_keys() (base/key_table.h), so misspellings get suggestions
// and errors name file, line and key.
#include "base/config_tree.h"
#include "base/key_table.h"
#include "sim/memory/dram/description.h"

namespace polyarch::sim::dram {

const KeyTable& dram_keys();

// Reads the `dram:` map `node`. Throws polyarch::Error (bad input) for an unknown key or value,
// a contradiction (a preset of another standard), more than one rank, or a configuration the
// timing model rejects.
DramDescription read_dram_map(const ConfigNode& node);

}  // namespace polyarch::sim::dram
