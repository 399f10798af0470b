#pragma once
// The small crossbar the pipeline tests derive timelines for by hand: 2 tiles x 4 arrays of
// 64 x 64 two-bit cells; 8-bit weights (4 cells, offset) and inputs (8 one-bit DAC slices);
// 100 ns reads; one 64-column group per array at 1 GS/s (64 ns); 5 ns shift-and-add; rows
// written in 10 ns.
#include <string>

#include "archs/crossbar/params.h"

namespace polyarch::archs::crossbar::test_units {

inline CrossbarParams small_unit() {
  CrossbarParams params;
  params.name = "xbar";
  params.tiles = 2;
  params.arrays_per_tile = 4;
  params.rows = 64;
  params.cols = 64;
  params.cell.bits_per_cell = 2;
  params.cell.write_ns_per_row = 10;
  params.weight_bits = 8;
  params.input_bits = 8;
  params.dac_bits = 1;
  params.adc.columns_per_adc = 64;
  params.adc.sample_rate_gsps = 1.0;
  params.read_ns = 100;
  params.peripheral_ns = 5;
  return params;
}

// The arch YAML of one 64 x 64 array on the 65 nm table: the SoC and the unit's head, then
// `unit_keys` (the unit's other keys, each line indented four spaces) from line 12 on.
inline std::string one_array_65nm_yaml(const std::string& unit_keys) {
  return "name: t\nclock_ghz: 1.0\ntechnology: 65nm\nmemory: {dram: {bandwidth_gbps: 10}}\n"
         "units:\n  - name: x\n    kind: crossbar\n    tiles: 1\n    arrays_per_tile: 1\n"
         "    rows: 64\n    cols: 64\n" +
         unit_keys;
}

}  // namespace polyarch::archs::crossbar::test_units
