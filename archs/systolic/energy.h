#pragma once
// Energy actions of a systolic op, from the activity counts its simulation produced (MACs, SRAM
// accesses, DRAM bytes, cycles) and the technology table. Equations: archs/systolic/README.md,
// "Energy".
#include "archs/systolic/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::systolic {

// Area of the array (PEs with their pipeline registers and, row stationary, their scratchpads)
// plus its three SRAM buffers (mm^2).
double systolic_area_mm2(const SystolicParams& params, const sim::TechTable& tech);

// The array's flip-flop bits, every PE's (what the clock network drives): pipeline registers
// and, row stationary, the ifmap and psum scratchpads.
double systolic_clocked_bits(const SystolicParams& params);

// Energy (J) by action: mac, pe_register, sram_ifmap, sram_filter, sram_ofmap, sram_fill, dram,
// leakage (over the op's latency); row stationary adds pe_filter_spad (the PEs' filter SRAMs).
sim::EnergyByAction systolic_op_energy(const SystolicParams& params, const sim::OpResult& op,
                                       const sim::EnergyContext& context);

}  // namespace polyarch::archs::systolic
