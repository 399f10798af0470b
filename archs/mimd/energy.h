#pragma once
// Energy actions and area of a mimd unit, from the counts its simulation recorded (MACs, DRAM
// bytes and latency in the op; element operations and NoC bytes x hops in its activity.h) and
// the technology table.
// Equations: archs/mimd/README.md, "Energy and area".
#include "archs/mimd/activity.h"
#include "archs/mimd/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::mimd {

// Area (mm^2): per core the vector FMA pipes, the special-function pipe, the private memory and
// one NoC router; the routers' input buffers are sized from the link width.
double mimd_area_mm2(const MimdParams& params, const sim::TechTable& tech);

// The routers' input-buffer bits, one router per core (what the clock network drives; the
// cores' vector registers are not counted by this model).
double mimd_clocked_bits(const MimdParams& params);

// Energy (J) by action: mac (vector FMAs), vector_op (other element operations), register_file,
// local_memory, noc, dram, leakage (of the whole unit over the op's latency).
sim::EnergyByAction mimd_op_energy(const MimdParams& params, const sim::OpResult& op,
                                   const MimdActivity& activity, const sim::EnergyContext& context);

}  // namespace polyarch::archs::mimd
