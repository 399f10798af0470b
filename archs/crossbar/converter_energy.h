#pragma once
// Energy of one column conversion by the converter's type (AdcParams::type). Equations:
// archs/crossbar/README.md, "Energy".
#include "archs/crossbar/params.h"
#include "sim/energy/tech_table.h"

namespace polyarch::archs::crossbar {

// pJ per conversion: the arch's adc.energy_pj where given; else for a SAR the technology table's
// Walden rule (FoM x 2^bits, anchored to ISAAC's SAR ADC), for a flash converter 2^bits - 1
// comparators each deciding once (the table's comparator C x Vdd^2) plus its reference's static
// power over one conversion period (1 / sample rate).
double adc_conversion_pj(const AdcParams& adc, const sim::TechTable& tech);

}  // namespace polyarch::archs::crossbar
