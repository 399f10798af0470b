#pragma once
// Energy and area per action of one technology node (configs/tech/<node>.yaml), after any
// overrides from an arch file's `energy:` map. The numbers' sources are cited in the YAML files;
// this file only reads, validates and looks them up.
#include <map>
#include <string>
#include <vector>

#include "base/config_tree.h"
#include "compiler/ir/dtype.h"

namespace polyarch::sim {

// One published SRAM point: energy per bit of one access to a macro of `kib` KiB.
struct SramEnergyPoint {
  double kib = 0.0;
  double pj_per_bit = 0.0;
};

// A section of a tech file that prices the devices some model builds from (e.g. the cells of an
// analog array): `<name>: {<device>: {<entry>: value}}`, every device pricing every entry. The
// model that prices with a section declares it; a tech file must price every declared section.
struct TechDeviceSection {
  std::string name;
  std::vector<std::string> devices;
  std::vector<std::string> entries;
};

class TechTable {
 public:
  static constexpr double kPjPerFj = 1e-3;
  std::string node;  // "28nm"
  double vdd_v = 0.0;
  // Scalar entries by dotted key path, e.g. "mult_pj.int8", "dram_pj_per_bit.hbm2".
  std::map<std::string, double> entries;
  std::vector<SramEnergyPoint> sram_curve;  // ascending kib
  std::vector<TechDeviceSection> device_sections;  // the sections this table was read with

  double entry(const std::string& key) const;  // throws a runtime error for an unknown key

  double mult_pj(ir::DType dtype) const;
  double add_pj(ir::DType dtype) const;
  // One multiply in the operand dtype plus one add in the accumulator dtype.
  double mac_pj(ir::DType operand, ir::DType accumulator) const {
    return mult_pj(operand) + add_pj(accumulator);
  }
  // One fused multiply-add in `dtype` (priced_dtype) on a lane datapath.
  double fma_pj(ir::DType dtype) const;
  // One format conversion of an element to or from `wide` (widening a stored fp8 or int4 value
  // into the type a unit computes, or narrowing a result back): an exponent re-bias, a mantissa
  // shift and a rounding, the work of an adder's alignment and normalisation in the wide type
  // (Horowitz, "Computing's Energy Problem", ISSCC 2014, whose add energies the add_pj rows
  // cite), so priced as one add in `wide`.
  double convert_pj(ir::DType wide) const;
  double register_pj_per_bit() const { return entry("register_pj_per_bit"); }
  // One clock edge pair (a cycle) at one clocked storage bit: its flip-flop's clock-pin
  // capacitance charged and discharged, C x Vdd^2 (pJ). The clock toggles every cycle whether or
  // not the bit's data changes.
  double clock_pj_per_bit_cycle() const {
    return entry("clock.sink_ff_per_bit") * vdd_v * vdd_v * kPjPerFj;
  }
  // Per bit of an access of `width_bits` to a macro of `kib` KiB: the curve interpolated linearly
  // in sqrt(kib) (extrapolated along the end segments); an access narrower than the reference
  // width pays for a whole reference word.
  double sram_access_pj_per_bit(double kib, int64_t width_bits) const;
  double sram_area_mm2(double kib) const { return kib * entry("sram.area_mm2_per_kib"); }
  double dram_pj_per_bit(const std::string& dram_kind) const;
  // Background power of one DRAM channel of `dram_kind` (active standby and refresh): drawn
  // whether or not it moves data, for as long as the chip runs.
  double dram_background_w_per_channel(const std::string& dram_kind) const;
  double wire_pj_per_bit_mm() const { return entry("wire_pj_per_bit_mm"); }
  // Leakage power of `area_mm2` of silicon at the reference temperature.
  double leakage_w(double area_mm2) const { return area_mm2 * entry("leakage_mw_per_mm2") * 1e-3; }
  // Leakage at `celsius` over leakage at the reference temperature (subthreshold conduction:
  // (T/T_ref)^2 exp(q Vth / (n k) (1/T_ref - 1/T)); the tech files cite the parameters).
  double leakage_temperature_factor(double celsius) const;
  // Mixed-signal converters of `bits` resolution: Walden figure of merit x 2^bits for an ADC
  // conversion and its area; a DAC drive per level step (2^bits - 1).
  double adc_pj_per_conversion(int64_t bits) const;
  // One clocked comparator's decision (a latch and its output stage switching, C x Vdd^2; pJ):
  // what a flash converter spends per comparator per conversion.
  double adc_comparator_pj() const;
  double adc_area_mm2(int64_t bits) const;
  double dac_pj_per_drive(int64_t bits) const;
  // `entry` of `device` in the device section `section`; a name the section does not declare is
  // an internal error (its model asked for a price it did not declare).
  double device_entry(const std::string& section, const std::string& device,
                      const std::string& entry) const;
  // One bit through one NoC router and the link to the next.
  double noc_router_pj_per_bit() const { return entry("noc.router_pj_per_bit"); }
  double mult_area_um2(ir::DType dtype) const;
  double add_area_um2(ir::DType dtype) const;
  double register_bit_area_um2() const { return entry("area_um2.register_bit"); }
};

// The tech table prices the arithmetic types; a model-only type is priced as the nearest one of
// its kind (bool and uint8 as int8; int64 and fp64 as int32 and fp32: an underestimate).
ir::DType priced_dtype(ir::DType dtype);
// The accumulator of a MAC datapath in `dtype`: int32 for integer types, fp16 for the fp8
// formats, fp32 otherwise. Hopper's fp8 tensor cores keep about 14 bits of the running sum
// (DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024, section 3.3.2), nearer fp16's 11-bit
// significand than fp32's 24.
ir::DType accumulator_dtype(ir::DType dtype);

// Every scalar key a tech file with `device_sections` must define (for validation and
// suggestions): the table's own keys, then each section's `name.device.entry`.
std::vector<std::string> tech_table_keys(const std::vector<TechDeviceSection>& device_sections);

// Parses a whole tech file that prices `device_sections` besides the table's own keys; every key
// is required and checked (non-negative numbers).
TechTable parse_tech_table(const ConfigNode& root,
                           const std::vector<TechDeviceSection>& device_sections);

// Applies an arch file's `energy:` map: the same structure as a tech file (with the table's
// device sections), every entry optional; an unknown key is an error naming file:line:col with
// the nearest valid key.
void apply_tech_overrides(TechTable& table, const ConfigNode& overrides);

}  // namespace polyarch::sim
