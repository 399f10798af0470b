#pragma once
// Energy actions of a simd op, from the activity counts its simulation recorded (activity.h:
// matrix MACs and lane ops by dtype, SFU results; sram: register-file, scratchpad and L2 bytes;
// DRAM bytes; latency) and the technology table. Equations: archs/simd/README.md, "Energy".
#include "archs/simd/activity.h"
#include "archs/simd/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::simd {

// Area (mm^2): per core the matrix engines, the vector and special-function lanes, the register
// file and the scratchpad; plus the shared L2.
double simd_area_mm2(const SimdParams& params, const sim::TechTable& tech);

// Energy (J) by action: mac_<dtype> (matrix engines), vector_op, sfu_op, instruction_issue
// (where the unit prices it), register_file, scratchpad, l2, dram, leakage (of the whole unit
// over the op's latency).
sim::EnergyByAction simd_op_energy(const SimdParams& params, const sim::OpResult& op,
                                   const SimdActivity& activity, const sim::EnergyContext& context);

// Per-unit energies (pJ) the actions use, for reports and tests.
double simd_sfu_op_pj(const sim::TechTable& tech);
double simd_vector_op_pj(const sim::TechTable& tech, ir::DType dtype);
double simd_matrix_mac_pj(const sim::TechTable& tech, ir::DType dtype);

}  // namespace polyarch::archs::simd
