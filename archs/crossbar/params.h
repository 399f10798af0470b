#pragma once
// Parameters of a `kind: crossbar` unit: analog in-memory MVM on tiles of R x C crossbar arrays.
// Weights are bit-sliced over cells (bits_per_cell each), signed by an offset or a differential
// pair of columns; inputs enter bit-serially through DACs of dac_bits; ADCs of adc.bits are
// shared by adc.columns_per_adc columns; digital shift-and-add combines slices. Model and
// sources: archs/crossbar/README.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "archs/crossbar/analog_params.h"
#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"

namespace polyarch::archs::crossbar {

// How a column's sum is converted, which sets the energy of one conversion (converter_energy.h):
// sar, b comparator decisions against a capacitive DAC, priced by the technology table's Walden
// rule; flash, 2^b - 1 comparators firing at once against a reference ladder (a multi-level
// sense amplifier is one: its references are dummy columns).
enum class AdcType { kSar, kFlash };

struct AdcParams {
  AdcType type = AdcType::kSar;
  int64_t bits = 8;
  int64_t columns_per_adc = 128;
  // ADCs of one tile, shared by all its arrays' column groups; nullopt: one per column group
  // (arrays_per_tile x ceil(cols / columns_per_adc)), so arrays never wait for a converter.
  std::optional<int64_t> per_tile;
  double sample_rate_gsps = 1.28;
  // Per conversion; nullopt: the technology table's ADC at `bits` (sim::TechTable::
  // adc_pj_per_conversion, the Walden figure of merit x 2^bits).
  std::optional<double> energy_pj;
  // A flash converter's reference (ladder or dummy columns): its static power while the converter
  // runs, drawn over every conversion period (1 / sample rate). 0: the design states none.
  double reference_power_uw = 0.0;
  double area_mm2 = 0.0012;
  // The ADC's input range as a fraction of the largest column sum an array can produce (every
  // row driven at the top DAC level into cells at the top level); larger sums clip. Smaller
  // ranges buy resolution where partial sums are small (functional model only).
  double full_scale_fraction = 1.0;
  // calibrated: each (input slice, cell slice) pair's ADC range is the largest column sum the
  // op's reads produce, as NeuroSim quantises partial sums over their observed range (a
  // reference set per layer from calibration data); the step is never finer than one level.
  // worst_case: the range above, set by the design alone (functional model only).
  bool calibrated_range = false;
};

struct CellParams {
  // The device, one of cell_devices() ("rram", "pcm", "sram"): its technology table entries
  // (cell_tech.h) price the cell where the energies below are not given.
  std::string device = "rram";
  int64_t bits_per_cell = 2;
  std::optional<double> read_energy_fj;   // per cell per read (one input bit-slice)
  std::optional<double> write_energy_pj;  // per cell programmed
  double write_ns_per_row = 100.0;        // rows of one array are programmed one at a time
  double endurance_cycles = 1e8;
};

// A part of the chip around the arrays that the array, converter and shift-and-add models do
// not price (a tile's buffer, bus, router share, registers, activation and pooling units, the
// chip's I/O links), from the part's published area and power breakdown: `count` of them, each
// of `area_mm2`, drawing `power_mw` while the unit runs.
struct PeripheryComponent {
  std::string name;
  int64_t count = 1;
  double area_mm2 = 0.0;
  double power_mw = 0.0;
};

// An on-chip path the activations take between the unit's memory side and its arrays:
// `width_bits` moved per cycle of `clock_ghz`, plus `latency_ns` per transfer (one wave's
// inputs or outputs). Width 0 (the default): the path is not timed, the arrays read and write
// the DRAM stream directly. Model: activation_path.h.
struct ActivationPath {
  int64_t width_bits = 0;
  double clock_ghz = 0;  // required where width_bits is given
  double latency_ns = 0;

  bool timed() const { return width_bits > 0; }
  // Nanoseconds to move `bits` over `lanes` such paths in parallel (0 when not timed).
  double transfer_ns(double bits, double lanes = 1.0) const;
};

struct CrossbarParams {
  std::string name;
  int64_t tiles = 1;
  int64_t arrays_per_tile = 8;
  int64_t rows = 128;
  int64_t cols = 128;
  CellParams cell;
  int64_t weight_bits = 16;
  int64_t input_bits = 16;
  int64_t dac_bits = 1;
  double dac_energy_pj = 0.004;  // per row drive per input slice
  // An input digit is driven as that many word-line pulses (the line charged once per pulse), not
  // as one level: SRAM-CIM macros that count read-word-line pulses (line_energy.h).
  bool dac_pulses = false;
  bool differential = false;     // signed weights as column pairs (else an offset column set)
  // ISAAC's encoding: a column whose levels sum above half the array's range (rows x top level)
  // stores every level's complement, so no column sum exceeds half the range and the ADC needs
  // one bit fewer; the digital side takes the sum back from the inputs' digit sum.
  bool flip_columns = false;
  AdcParams adc;
  double read_ns = 100.0;             // one array read of one input slice
  double shift_add_energy_pj = 0.05;  // per ADC result combined
  double peripheral_ns = 10.0;        // shift-and-add, output register, per MVM
  double array_area_mm2 = 0.0002;     // one R x C array with its drivers
  std::optional<double> clock_ghz;    // digital clock; nullopt = the SoC clock
  AnalogParams analog;                // functional effects (`analog:`)
  std::vector<PeripheryComponent> periphery;  // `periphery:`; none by default
  // Each tile's input and output buffers (one port of buffer.width_bits each, per tile), and
  // the bus all tiles share (`buffer:`, `bus:`; untimed by default).
  ActivationPath buffer;
  ActivationPath bus;

  // The periphery's total area (mm^2) and power while the unit runs (W).
  double periphery_area_mm2() const;
  double periphery_power_w() const;

  int64_t array_count() const { return tiles * arrays_per_tile; }
  int64_t column_groups_per_array() const;  // ceil(cols / adc.columns_per_adc)
  int64_t adcs_per_tile() const;            // adc.per_tile, or one per column group
  int64_t cells_per_weight() const;         // slices, doubled when differential
  // DAC slices per input vector: ceil(input_bits / dac_bits) for unsigned inputs; a signed
  // input goes in sign-magnitude, two phases of ceil((input_bits - 1) / dac_bits).
  int64_t input_slices(bool is_signed = false) const;
  // The largest sum one column can read in one slice: rows x top cell level x top DAC digit
  // (half the rows' levels with flipped columns: a column and its complement sum to rows x
  // top level at most).
  double worst_column_sum() const;
  // Nanoseconds per input slice: the array read and the ADCs' conversions of all columns,
  // pipelined against each other.
  double slice_ns() const;
};

// The keys of a `kind: crossbar` unit (the `analog:` map included): what parse_crossbar_params
// reads and `validate --describe crossbar` prints.
const KeyTable& crossbar_keys();

// Reads the keys of one `units[]` entry (name and kind already known) through crossbar_keys().
// Errors name the key.
CrossbarParams parse_crossbar_params(KeyReader& unit, const std::string& unit_name);

}  // namespace polyarch::archs::crossbar
