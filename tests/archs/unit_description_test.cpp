// A unit's description (report.json's `arch`, part of every mapping-decision key) is its kind's
// keys in table order, each at the value written or, where none is, at the default its README
// and struct give; counts that follow from the keys (a PIM's PUs) sit after the key they follow
// from. The expected texts below are written out by hand from those defaults.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "archs/soc/soc_config.h"

namespace polyarch::archs {
namespace {

std::string description_of(const std::string& unit) {
  const SocConfig soc = parse_soc_config(parse_config_text(R"(name: t
clock_ghz: 1.0
memory:
  dram: {kind: hbm2, bandwidth_gbps: 600}
units:
  - )" + unit + "\n",
                                                           "arch.yaml"));
  return soc.units.at(0)->describe().dump();
}

// `expected` as the description would print it (key order and number types kept).
std::string printed(const std::string& expected) {
  return nlohmann::ordered_json::parse(expected).dump();
}

TEST(UnitDescription, SystolicFillsTheBuffersItIsNotGiven) {
  EXPECT_EQ(
      description_of(
          "{name: npu, kind: systolic, rows: 32, cols: 16, dataflow: os, buffers: {ifmap_kib: "
          "64}}"),
      printed(R"({"name": "npu", "kind": "systolic", "rows": 32, "cols": 16,
                "dataflow": "os", "dtype": "int8", "acc_dtype": "int32", "scalesim_compat": true,
                "buffers": {"ifmap_kib": 64, "filter_kib": 512, "ofmap_kib": 256,
                            "double_buffered": true},
                "scratchpads": {"filter_words": 224, "ifmap_words": 12, "psum_words": 24},
                "clock_ghz": null})"));
}

// An engine's synchronous MMA rates, not written, resolve to its full rates.
TEST(UnitDescription, SimdListsEngineRatesInDtypeOrderAndTheSparsePattern) {
  EXPECT_EQ(description_of(R"({name: gpu, kind: simd, count: 8, clock_ghz: 1.5,
      vector: {lanes: 64},
      matrix_engine: {per_core: 2, macs_per_cycle: {fp16: 256, int8: 512}, sparse_mn: "2:4"},
      scratchpad: {kib: 128, bytes_per_cycle: 64},
      l2: {capacity_mib: 4, bytes_per_cycle: 1024}, core_bytes_per_cycle: 32})"),
            printed(R"({"name": "gpu", "kind": "simd", "count": 8, "clock_ghz": 1.5,
                "dtype": "fp16",
                "vector": {"lanes": 64, "sfu_lanes": 4, "registers_kib": 64,
                           "packed_narrow_types": true},
                "matrix_engine": {"per_core": 2, "min_tile_m": 16,
                                  "macs_per_cycle": {"int8": 512, "fp16": 256},
                                  "sync_macs_per_cycle": {"int8": 512, "fp16": 256},
                                  "sparse_mn": "2:4"},
                "scratchpad": {"kib": 128, "bytes_per_cycle": 64},
                "l2": {"capacity_mib": 4.0, "bytes_per_cycle": 1024, "hit_latency_cycles": 200},
                "core_bytes_per_cycle": 32, "launch_overhead_ns": 0.0,
                "instruction_issue_pj": 0.0})"));
}

TEST(UnitDescription, SimdWithoutAMatrixEngineDescribesNone) {
  const auto described = nlohmann::ordered_json::parse(description_of(R"({name: dsp, kind: simd,
      count: 2, vector: {lanes: 32}, scratchpad: {kib: 64, bytes_per_cycle: 64},
      l2: {capacity_mib: 1, bytes_per_cycle: 256}, core_bytes_per_cycle: 64})"));
  EXPECT_EQ(described["matrix_engine"].dump(),
            printed(R"({"per_core": 0, "min_tile_m": 16, "macs_per_cycle": {},
                        "sync_macs_per_cycle": {}, "sparse_mn": null})"));
}

TEST(UnitDescription, MimdRingKeepsTheColumnsAMeshWouldName) {
  EXPECT_EQ(description_of(R"({name: cpu, kind: mimd, count: 4,
      core: {vector_lanes: 8, local_kib: 256}, noc: {topology: ring, link_bytes_per_cycle: 16}})"),
            printed(R"({"name": "cpu", "kind": "mimd", "count": 4, "clock_ghz": null,
                "dtype": "fp32",
                "core": {"vector_lanes": 8, "vector_units": 2, "sfu_per_cycle": 1,
                         "local_kib": 256, "packed_narrow_types": true,
                         "outstanding_lines": 0, "line_bytes": 64,
                         "memory_latency_ns": null, "write_allocate": false},
                "noc": {"topology": "ring", "columns": 1, "link_bytes_per_cycle": 16,
                        "hop_latency_cycles": 1, "memory_ports": 1},
                "barrier_cycles": 0, "dispatch_overhead_ns": 0.0})"));
}

// HBM2E: 16 pseudo-channels of 16 banks per stack; 2 banks per PU gives 8 PUs each, 128 in all.
TEST(UnitDescription, PimPlacesItsDerivedCountsAfterTheKeysTheyFollowFrom) {
  EXPECT_EQ(
      description_of("{name: pim, kind: pim, memory: hbm2e_3200, banks_per_pu: 2, lanes: 16}"),
      printed(R"({"name": "pim", "kind": "pim", "memory": "hbm2e_3200", "devices": 1,
                "pseudo_channels": 16, "banks_per_pu": 2, "pus": 128, "lanes": 16,
                "pu": "simd",
                "core": {"tasklets": 16, "dispatch_interval_cycles": 11, "dma_block_bytes": 1024,
                         "dma_read_latency_cycles": 77.0, "dma_write_latency_cycles": 61.0,
                         "dma_cycles_per_byte": 0.5, "loop_instructions": 3,
                         "mul_instructions": 1},
                "pu_clock_mhz": 0.0, "dtype": "fp16", "functions": ["add", "mul", "relu"],
                "register_bytes": 256, "max_batch": 16,
                "energy_split": {"activation": 0.3333333333333333, "core": 0.3333333333333333,
                                 "io": 0.3333333333333333},
                "mode": "all_bank", "reduction": "host", "preemption": "op"})"));
}

TEST(UnitDescription, CrossbarNullsOnlyTheEnergiesTheTablePrices) {
  EXPECT_EQ(description_of(R"({name: xbar, kind: crossbar, tiles: 2, arrays_per_tile: 4, rows: 64,
      cols: 64, cell: {device: pcm, bits_per_cell: 2, read_energy_fj: 3.5},
      adc: {bits: 6, columns_per_adc: 8, sample_rate_gsps: 1.0}, read_ns: 50,
      analog: {read_sigma: 0.01}})"),
            printed(R"({"name": "xbar", "kind": "crossbar", "tiles": 2, "arrays_per_tile": 4,
                "rows": 64, "cols": 64,
                "cell": {"device": "pcm", "bits_per_cell": 2, "read_energy_fj": 3.5,
                         "write_energy_pj": null, "write_ns_per_row": 100.0,
                         "endurance_cycles": 100000000.0},
                "weight_bits": 16, "input_bits": 16, "dac_bits": 1, "dac_energy_pj": 0.004,
                "signed_weights": "offset", "flip_columns": false,
                "adc": {"type": "sar", "reference_power_uw": 0.0, "bits": 6, "columns_per_adc": 8,
                        "per_tile": null, "sample_rate_gsps": 1.0, "energy_pj": null,
                        "area_mm2": 0.0012, "full_scale_fraction": 1.0, "range": "worst_case"},
                "dac_pulses": false,
                "read_ns": 50.0, "shift_add_energy_pj": 0.05, "peripheral_ns": 10.0,
                "array_area_mm2": 0.0002, "clock_ghz": null,
                "buffer": {"width_bits": 0, "clock_ghz": null, "latency_ns": 0.0},
                "bus": {"width_bits": 0, "clock_ghz": null, "latency_ns": 0.0}, "periphery": [],
                "analog": {"adc_quantization": true, "program_sigma": 0.0,
                           "program_variation": "lognormal", "read_sigma": 0.01,
                           "stuck_at_zero_rate": 0.0, "stuck_at_one_rate": 0.0,
                           "wire_resistance_ohm": 0.0, "cell_on_resistance_ohm": 10000.0}})"));
}

// A fixed load time leaves the bus keys at their defaults; ALU ops and MAC types print sorted.
TEST(UnitDescription, DataflowNestsTheMacAndKeepsTheBusKeysBesideAFixedLoadTime) {
  EXPECT_EQ(description_of(R"({name: cgra, kind: dataflow,
      pe: {rows: 2, cols: 4, alu_ops: [sub, add, mul], mac: {dtypes: [fp32, int8]},
           latency_cycles: {mul: 3}},
      network: {topology: torus},
      memory_pes: {count: 2, scratchpad_kib: 16, bytes_per_cycle: 8},
      config: {load_cycles: 100}})"),
            printed(R"({"name": "cgra", "kind": "dataflow", "clock_ghz": null, "dtype": "fp32",
                "pe": {"rows": 2, "cols": 4, "lanes": 1, "stages": 1, "registers": 8,
                       "alu_ops": ["add", "mul", "sub"], "mac": {"dtypes": ["int8", "fp32"]},
                       "latency_cycles": {"mul": 3}, "fifo_area_mm2": 0.0,
                       "control_area_mm2": 0.0},
                "network": {"topology": "torus", "links_per_direction": 1, "hops_per_cycle": 1,
                            "routing": "switches", "buffer_values": 16, "area_mm2": null},
                "memory_pes": {"count": 2, "scratchpad_kib": 16.0, "bytes_per_cycle": 8,
                               "ports": 1, "access_cycles": 1, "logic_area_mm2": 0.0},
                "config": {"load_cycles": 100, "bytes_per_pe": 64, "bus_bytes_per_cycle": 8,
                           "contexts": 1, "context_switch_cycles": 0},
                "dram_interface_area_mm2": 0.0, "seed": 1})"));
}

}  // namespace
}  // namespace polyarch::archs
