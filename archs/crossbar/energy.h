#pragma once
// Energy actions of a crossbar op from the conversions, drives and cell reads its plan counted
// (activity.h) and its DRAM bytes; area of the arrays, ADCs and periphery. Equations:
// archs/crossbar/README.md, "Energy".
#include "archs/crossbar/activity.h"
#include "archs/crossbar/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::crossbar {

double crossbar_area_mm2(const CrossbarParams& params);

// The per-event energies an op is priced with: the arch's explicit values, else the technology
// table's entries for the cell's device (crossbar_cell.<device>) and the ADC's bits.
struct CrossbarEventEnergy {
  double cell_read_fj = 0.0;   // per cell per read (one input bit-slice)
  double cell_write_pj = 0.0;  // per cell programmed
  double adc_pj = 0.0;         // per conversion
};
CrossbarEventEnergy crossbar_event_energy(const CrossbarParams& params, const sim::TechTable& tech);

// Energy (J) by action: adc, dac, array_read, shift_add, reprogram, dram, periphery (its power
// over the op), leakage.
sim::EnergyByAction crossbar_op_energy(const CrossbarParams& params, const sim::OpResult& op,
                                       const CrossbarActivity& activity,
                                       const sim::EnergyContext& context);

}  // namespace polyarch::archs::crossbar
