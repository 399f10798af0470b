#pragma once
// Energy actions of a crossbar op from the conversions, drives, cell reads and bytes its plan
// counted; area of the arrays and ADCs. Equations: archs/crossbar/README.md, "Energy".
#include "archs/crossbar/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::crossbar {

double crossbar_area_mm2(const CrossbarParams& params);

// Energy (J) by action: adc, dac, array_read, shift_add, reprogram, dram, leakage.
sim::EnergyByAction crossbar_op_energy(const CrossbarParams& params, const sim::OpResult& op,
                                       const sim::EnergyContext& context);

}  // namespace polyarch::archs::crossbar
