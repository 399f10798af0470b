#include "archs/dataflow/energy.h"

#include <algorithm>

namespace polyarch::archs::dataflow {

namespace {

constexpr double kPjToJ = 1e-12;
constexpr double kUm2ToMm2 = 1e-6;
constexpr double kBitsPerByte = 8.0;
constexpr double kWordBits = 32.0;  // registers and switch buffers hold 32-bit words
// Operands a node reads and writes in pipeline registers: two in, one out.
constexpr double kRegisterAccessesPerOp = 3.0;
// A special function (div, exp, log, sqrt, rsqrt, tanh) as a degree-2 polynomial on table-
// interpolated coefficients (Oberman and Siu, ARITH 2005): two fp32 multiplies and two adds.
constexpr double kSpecialMultsAndAdds = 2.0;

// One PE's register and pipeline-stage words.
double pe_register_bits(const DataflowParams& params) {
  return (static_cast<double>(params.pe.registers) + static_cast<double>(params.pe.stages)) *
         static_cast<double>(params.pe.lanes) * kWordBits;
}

// One PE's switch buffers: one word per lane per link and direction.
double switch_buffer_bits(const DataflowParams& params) {
  return 4.0 * static_cast<double>(params.network.links_per_direction) *
         static_cast<double>(params.pe.lanes) * kWordBits;
}

}  // namespace

double dataflow_clocked_bits(const DataflowParams& params) {
  return static_cast<double>(params.pe.count()) *
         (pe_register_bits(params) + switch_buffer_bits(params));
}

double dataflow_area_mm2(const DataflowParams& params, const sim::TechTable& tech) {
  const ir::DType dtype = sim::priced_dtype(params.dtype);
  const double lanes = static_cast<double>(params.pe.lanes);
  const double fu_um2 = tech.add_area_um2(dtype) + tech.mult_area_um2(dtype);
  double mac_um2 = 0.0;
  for (ir::DType mac : params.pe.mac_dtypes) {
    const ir::DType priced = sim::priced_dtype(mac);
    mac_um2 =
        std::max(mac_um2, tech.mult_area_um2(priced) +
                              tech.add_area_um2(sim::accumulator_dtype(priced)));
  }
  // A published network area includes the switches' buffers; without it they are priced as
  // register bits of each PE.
  const double priced_bits =
      pe_register_bits(params) + (params.network.area_mm2 ? 0.0 : switch_buffer_bits(params));
  const double pe_um2 = lanes * static_cast<double>(params.pe.stages) * fu_um2 + lanes * mac_um2 +
                        priced_bits * tech.register_bit_area_um2();
  const double pes = static_cast<double>(params.pe.count());
  const double memory_pes = static_cast<double>(params.memory.count);
  const double fabric = pes * pe_um2 * kUm2ToMm2 +
                        memory_pes * tech.sram_area_mm2(params.memory.scratchpad_kib);
  // The parts the technology table has no entry for, at their published areas.
  const double published = pes * (params.pe.fifo_area_mm2 + params.pe.control_area_mm2) +
                           memory_pes * params.memory.logic_area_mm2 +
                           params.network.area_mm2.value_or(0.0) +
                           params.dram_interface_area_mm2;
  return fabric + published;
}

sim::EnergyByAction dataflow_op_energy(const DataflowParams& params, const sim::OpResult& op,
                                       const DataflowActivity& activity,
                                       const sim::EnergyContext& context) {
  const sim::TechTable& tech = context.tech;
  const ir::DType dtype = sim::priced_dtype(activity.dtype);
  const double bits = static_cast<double>(ir::dtype_bytes(dtype)) * kBitsPerByte;
  const PhaseActivity& work = activity.work;
  const auto macs = static_cast<double>(work.macs);
  const auto alu = static_cast<double>(work.alu_ops);
  const auto muls = static_cast<double>(work.mul_ops);
  const auto special = static_cast<double>(work.special_ops);
  sim::EnergyByAction energy;
  energy["mac"] = macs * tech.mac_pj(dtype, sim::accumulator_dtype(dtype)) * kPjToJ;
  energy["alu"] = alu * tech.add_pj(dtype) * kPjToJ;
  energy["mul"] = muls * tech.mult_pj(dtype) * kPjToJ;
  energy["special"] = special * kSpecialMultsAndAdds *
                      (tech.mult_pj(ir::DType::kFp32) + tech.add_pj(ir::DType::kFp32)) * kPjToJ;
  energy["register_file"] = (macs + alu + muls + special) * kRegisterAccessesPerOp * bits *
                            tech.register_pj_per_bit() * kPjToJ;
  energy["network"] =
      static_cast<double>(work.network_bit_hops) * tech.noc_router_pj_per_bit() * kPjToJ;
  const auto access_bits = static_cast<int64_t>(static_cast<double>(params.pe.lanes) * bits);
  energy["scratchpad"] = static_cast<double>(work.scratchpad_bytes) * kBitsPerByte *
                         tech.sram_access_pj_per_bit(params.memory.scratchpad_kib, access_bits) *
                         kPjToJ;
  energy["config"] = static_cast<double>(activity.config_bytes) * kBitsPerByte *
                     tech.register_pj_per_bit() * kPjToJ;
  const double dram_bits = static_cast<double>(op.dram_bytes_read + op.dram_bytes_written) * 8.0;
  energy["dram"] = dram_bits * tech.dram_pj_per_bit(context.dram_kind) * kPjToJ;
  energy["leakage"] = tech.leakage_w(dataflow_area_mm2(params, tech)) * op.latency_s();
  return energy;
}

}  // namespace polyarch::archs::dataflow
