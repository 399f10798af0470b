#include "archs/crossbar/line_energy.h"

#include <cmath>

namespace polyarch::archs::crossbar {

namespace {

constexpr const char* kLineDevice = "sram";

double line_pj(double cells, double ff_per_cell, const sim::TechTable& tech) {
  return cells * ff_per_cell * tech.vdd_v * tech.vdd_v * sim::TechTable::kPjPerFj;
}

}  // namespace

const sim::TechDeviceSection& line_tech_section() {
  static const sim::TechDeviceSection section = {
      "crossbar_line", {kLineDevice}, {"bitline_ff", "wordline_ff"}};
  return section;
}

bool prices_lines(const std::string& device) { return device == kLineDevice; }

double bitline_pj_per_column_read(const CrossbarParams& params, const sim::TechTable& tech) {
  const double ff = tech.device_entry(line_tech_section().name, kLineDevice, "bitline_ff");
  return line_pj(static_cast<double>(params.rows), ff, tech);
}

double wordline_pj_per_drive(const CrossbarParams& params, const sim::TechTable& tech) {
  const double ff = tech.device_entry(line_tech_section().name, kLineDevice, "wordline_ff");
  // Random digits: a pulse-coded digit averages half the top digit's pulses; a level-coded one
  // charges the line to half the supply on average, drawing C (Vdd / 2) Vdd.
  const double top_digit = std::ldexp(1.0, static_cast<int>(params.dac_bits)) - 1.0;
  const double charges = params.dac_pulses ? top_digit / 2.0 : 0.5;
  return charges * line_pj(static_cast<double>(params.cols), ff, tech);
}

}  // namespace polyarch::archs::crossbar
