#pragma once
// Energy actions of a dataflow op from the activity its simulation recorded (mapping.activity:
// MACs, ALU ops by class, scratchpad bytes, network bit-hops, configuration bytes) and the
// technology table; area of PEs, switches and scratchpads. Equations: archs/dataflow/README.md,
// "Energy".
#include "archs/dataflow/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::dataflow {

double dataflow_area_mm2(const DataflowParams& params, const sim::TechTable& tech);

// Energy (J) by action: mac, alu, mul, special, register_file, network, scratchpad, config,
// dram, leakage.
sim::EnergyByAction dataflow_op_energy(const DataflowParams& params, const sim::OpResult& op,
                                       const sim::EnergyContext& context);

}  // namespace polyarch::archs::dataflow
