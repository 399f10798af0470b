#pragma once
// Energy actions of a PIM op from the commands and bytes its plan counted (activity.h; the
// external bytes are the op's DRAM bytes): row activations, column accesses beside the banks,
// external I/O to the host, the PUs' arithmetic, and the PUs' leakage over the op. Equations:
// archs/pim/README.md, "Energy".
#include "archs/pim/activity.h"
#include "archs/pim/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::pim {

// The PUs' silicon (lanes of multiply-add in the PU dtype and their register buffers), mm^2;
// the DRAM arrays are not counted.
double pim_area_mm2(const PimParams& params, const sim::TechTable& tech);

// Energy (J) by action: activate, column_read, io, pu_compute, pu_register, leakage.
sim::EnergyByAction pim_op_energy(const PimParams& params, const sim::OpResult& op,
                                  const PimActivity& activity, const sim::EnergyContext& context);

}  // namespace polyarch::archs::pim
