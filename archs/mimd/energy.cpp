#include "archs/mimd/energy.h"

#include <algorithm>

namespace polyarch::archs::mimd {

namespace {

constexpr double kPjToJ = 1e-12;
constexpr double kUm2ToMm2 = 1e-6;
constexpr double kBitsPerByte = 8.0;
// An FMA reads three register operands and writes one.
constexpr double kRegisterAccessesPerOp = 4.0;
// A special-function pipe evaluates a degree-2 polynomial (two multiplies and two adds), as the
// simd kind's SFU (Oberman and Siu, ARITH 2005).
constexpr double kSfuFmas = 2.0;
// A mesh router has five ports (four neighbours and the core) and a crossbar between them;
// Peh and Dally's canonical router buffers four flits per input port. Buffers take about half
// of a router's area (ORION 2.0, Kahng et al., DATE 2009), the crossbar and allocators the rest.
constexpr double kRouterPorts = 5.0;
constexpr double kBufferedFlitsPerPort = 4.0;
constexpr double kRouterAreaOverBuffers = 2.0;

double element_bits(ir::DType dtype) { return 8.0 * static_cast<double>(ir::dtype_bytes(dtype)); }

// One router's input buffers: every port holds its flits.
double router_buffer_bits(const MimdParams& params) {
  const double flit_bits = kBitsPerByte * static_cast<double>(params.noc.link_bytes_per_cycle);
  return kRouterPorts * kBufferedFlitsPerPort * flit_bits;
}

double router_area_um2(const MimdParams& params, const sim::TechTable& tech) {
  return kRouterAreaOverBuffers * router_buffer_bits(params) * tech.register_bit_area_um2();
}

}  // namespace

double mimd_clocked_bits(const MimdParams& params) {
  return static_cast<double>(params.count) * router_buffer_bits(params);
}

double mimd_area_mm2(const MimdParams& params, const sim::TechTable& tech) {
  const double fp32_fma_um2 =
      tech.mult_area_um2(ir::DType::kFp32) + tech.add_area_um2(ir::DType::kFp32);
  const double lanes = static_cast<double>(params.core.vector_units * params.core.vector_lanes);
  const double logic_um2 = lanes * fp32_fma_um2 +
                           static_cast<double>(params.core.sfu_per_cycle) * kSfuFmas *
                               fp32_fma_um2 +
                           router_area_um2(params, tech);
  const double core_mm2 = logic_um2 * kUm2ToMm2 +
                          tech.sram_area_mm2(static_cast<double>(params.core.local_kib));
  return static_cast<double>(params.count) * core_mm2;
}

sim::EnergyByAction mimd_op_energy(const MimdParams& params, const sim::OpResult& op,
                                   const MimdActivity& activity,
                                   const sim::EnergyContext& context) {
  const sim::TechTable& tech = context.tech;
  const double macs = static_cast<double>(op.macs);
  const auto flops = static_cast<double>(activity.flops);
  // A MAC is two FLOPs on one FMA; every other FLOP is one element operation on the same pipe.
  const double other_ops = std::max(0.0, flops - 2.0 * macs);
  const double fma = tech.fma_pj(params.dtype);
  const double bits = element_bits(params.dtype);
  sim::EnergyByAction energy;
  energy["mac"] = macs * fma * kPjToJ;
  energy["vector_op"] = other_ops * fma * kPjToJ;
  energy["register_file"] =
      (macs + other_ops) * kRegisterAccessesPerOp * bits * tech.register_pj_per_bit() * kPjToJ;
  // Every DRAM byte is written into private memory on arrival and read by the pipes (stores the
  // other way round); operand reuse within the vector registers is taken as complete, so this
  // is a lower bound for kernels whose blocks do not fit the registers.
  const double dram_bits =
      kBitsPerByte * static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);
  const int64_t port_bits = params.core.vector_lanes * 32;
  energy["local_memory"] = 2.0 * dram_bits *
                           tech.sram_access_pj_per_bit(
                               static_cast<double>(params.core.local_kib), port_bits) *
                           kPjToJ;
  const double noc_bit_hops = kBitsPerByte * activity.noc_link_bytes;
  energy["noc"] = noc_bit_hops * tech.noc_router_pj_per_bit() * kPjToJ;
  energy["dram"] = dram_bits * tech.dram_pj_per_bit(context.dram_kind) * kPjToJ;
  energy["leakage"] = tech.leakage_w(mimd_area_mm2(params, tech)) * op.latency_s();
  return energy;
}

}  // namespace polyarch::archs::mimd
