#pragma once
// The word and bit lines an SRAM-CIM array switches on every read: the technology table's
// `crossbar_line:` section gives their capacitance per cell along the line, the array's geometry
// their length. Equations: archs/crossbar/README.md, "Energy".
#include <string>

#include "archs/crossbar/params.h"
#include "sim/energy/tech_table.h"

namespace polyarch::archs::crossbar {

// `crossbar_line: {sram: {bitline_ff, wordline_ff}}`, which every tech file prices.
const sim::TechDeviceSection& line_tech_section();

// Whether reads of a cell device switch lines this model prices: SRAM-CIM arrays precharge their
// bit lines and drive their word lines at the logic supply. Resistive arrays (rram, pcm) read
// their columns as currents into held nodes and drive their rows through the DACs, which
// dac_energy_pj prices.
bool prices_lines(const std::string& device);

// One column's bit line precharged for one read: rows x C_bl x Vdd^2 (pJ).
double bitline_pj_per_column_read(const CrossbarParams& params, const sim::TechTable& tech);

// One row drive (one input slice on one row): its word line, cols x C_wl, charged
// (2^dac_bits - 1) / 2 times with dac_pulses (a digit is that many pulses, random digits average
// half the top one), else once to the digit's level (C V_digit Vdd, on average half of C Vdd^2).
double wordline_pj_per_drive(const CrossbarParams& params, const sim::TechTable& tech);

}  // namespace polyarch::archs::crossbar
