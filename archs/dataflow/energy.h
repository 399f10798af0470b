#pragma once
// Energy actions of a dataflow op from the activity its simulation recorded (activity.h: MACs,
// ALU ops by class, scratchpad bytes, network bit-hops, configuration bytes, in the op's dtype)
// and the technology table; area of PEs, switches and scratchpads. Equations:
// archs/dataflow/README.md, "Energy".
#include "archs/dataflow/activity.h"
#include "archs/dataflow/params.h"
#include "sim/energy/energy_context.h"
#include "sim/result.h"

namespace polyarch::archs::dataflow {

double dataflow_area_mm2(const DataflowParams& params, const sim::TechTable& tech);

// Every PE's register and pipeline-stage words and its switch's buffers, in bits (what the clock
// network drives).
double dataflow_clocked_bits(const DataflowParams& params);

// Energy (J) by action: mac, alu, mul, special, register_file, network, scratchpad, config,
// dram, leakage; `op` gives the DRAM bytes and the latency (for leakage).
sim::EnergyByAction dataflow_op_energy(const DataflowParams& params, const sim::OpResult& op,
                                       const DataflowActivity& activity,
                                       const sim::EnergyContext& context);

}  // namespace polyarch::archs::dataflow
