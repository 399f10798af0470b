#include "archs/simd/energy.h"

#include <algorithm>
#include <string>

namespace polyarch::archs::simd {

namespace {

constexpr double kPjToJ = 1e-12;
constexpr double kUm2ToMm2 = 1e-6;
constexpr double kBitsPerByte = 8.0;
constexpr int64_t kLaneBits = 32;  // archs/simd/README.md "Parameters": lanes are 32-bit
// A special-function unit evaluates a degree-2 polynomial on table-interpolated coefficients
// (Oberman and Siu, "A high-performance area-efficient multifunction interpolator", ARITH 2005,
// the design of NVIDIA's SFU): in Horner form two fp32 multiplies and two fp32 adds per result.
constexpr double kSfuFp32MultsAndAdds = 2.0;

double kib_of_l2(const SimdParams& params) { return params.l2.capacity_mib * 1024.0; }

double bits_of(const sim::OpResult& op, const std::string& buffer) {
  auto found = op.sram.find(buffer);
  if (found == op.sram.end()) return 0.0;
  return kBitsPerByte * static_cast<double>(found->second.reads + found->second.writes);
}

// One core's matrix engines: every listed type runs on one datapath (H100's int8 rate is twice
// its bf16 rate on the same tensor cores), so the type whose multipliers and adders take the
// most area at its rate sizes it.
double engine_um2_per_core(const SimdParams& params, const sim::TechTable& tech) {
  double largest = 0.0;
  for (const auto& [dtype, macs_per_cycle] : params.matrix_engine.macs_per_cycle) {
    const double mac_um2 =
        tech.mult_area_um2(sim::priced_dtype(dtype)) +
        tech.add_area_um2(sim::accumulator_dtype(dtype));
    largest = std::max(largest, static_cast<double>(macs_per_cycle) * mac_um2);
  }
  return static_cast<double>(params.matrix_engine.per_core) * largest;
}

}  // namespace

double simd_matrix_mac_pj(const sim::TechTable& tech, ir::DType dtype) {
  return tech.mac_pj(sim::priced_dtype(dtype), sim::accumulator_dtype(dtype));
}

// A lane computes with a fused multiply-add datapath; an add, compare or max uses the same
// datapath, so every lane op is priced as one FMA of its element type (an upper bound).
double simd_vector_op_pj(const sim::TechTable& tech, ir::DType dtype) {
  return tech.fma_pj(dtype);
}

double simd_sfu_op_pj(const sim::TechTable& tech) {
  return kSfuFp32MultsAndAdds * (tech.mult_pj(ir::DType::kFp32) + tech.add_pj(ir::DType::kFp32));
}

double simd_area_mm2(const SimdParams& params, const sim::TechTable& tech) {
  const double fp32_fma_um2 =
      tech.mult_area_um2(ir::DType::kFp32) + tech.add_area_um2(ir::DType::kFp32);
  const double lanes_um2 = static_cast<double>(params.vector.lanes) * fp32_fma_um2;
  const double sfu_um2 =
      static_cast<double>(params.vector.sfu_lanes) * kSfuFp32MultsAndAdds * fp32_fma_um2;
  const double core_mm2 =
      (engine_um2_per_core(params, tech) + lanes_um2 + sfu_um2) * kUm2ToMm2 +
      tech.sram_area_mm2(static_cast<double>(params.vector.registers_kib + params.scratchpad.kib));
  return static_cast<double>(params.count) * core_mm2 + tech.sram_area_mm2(kib_of_l2(params));
}

sim::EnergyByAction simd_op_energy(const SimdParams& params, const sim::OpResult& op,
                                   const SimdActivity& activity,
                                   const sim::EnergyContext& context) {
  const sim::TechTable& tech = context.tech;
  sim::EnergyByAction energy;
  for (const auto& [dtype, macs] : activity.matrix_macs) {
    energy["mac_" + std::string(ir::dtype_name(dtype))] =
        static_cast<double>(macs) * simd_matrix_mac_pj(tech, dtype) * kPjToJ;
  }
  double vector_pj = 0.0;
  for (const auto& [dtype, ops] : activity.vector_ops) {
    vector_pj += static_cast<double>(ops) * simd_vector_op_pj(tech, dtype);
  }
  energy["vector_op"] = vector_pj * kPjToJ;
  energy["sfu_op"] = static_cast<double>(activity.sfu_ops) * simd_sfu_op_pj(tech) * kPjToJ;
  // Fetching, decoding, scheduling and delivering operands to each thread instruction: a unit
  // parameter (a GPU's front end, not a table entry); named only where the unit prices it.
  if (params.instruction_issue_pj > 0) {
    energy["instruction_issue"] =
        static_cast<double>(activity.thread_instructions) * params.instruction_issue_pj * kPjToJ;
  }

  // One access as wide as the port that makes it: a register-file access feeds every lane; the
  // scratchpad and L2 deliver their bytes per cycle (per core for L2: one core's port).
  const double register_pj_per_bit = tech.sram_access_pj_per_bit(
      static_cast<double>(params.vector.registers_kib), params.vector.lanes * kLaneBits);
  const double scratchpad_pj_per_bit = tech.sram_access_pj_per_bit(
      static_cast<double>(params.scratchpad.kib),
      params.scratchpad.bytes_per_cycle * static_cast<int64_t>(kBitsPerByte));
  const double l2_pj_per_bit = tech.sram_access_pj_per_bit(
      kib_of_l2(params), params.core_bytes_per_cycle * static_cast<int64_t>(kBitsPerByte));
  energy["register_file"] = bits_of(op, "register_file") * register_pj_per_bit * kPjToJ;
  energy["scratchpad"] = bits_of(op, "scratchpad") * scratchpad_pj_per_bit * kPjToJ;
  energy["l2"] = bits_of(op, "l2") * l2_pj_per_bit * kPjToJ;

  const double dram_bits =
      kBitsPerByte * static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);
  energy["dram"] = dram_bits * tech.dram_pj_per_bit(context.dram_kind) * kPjToJ;
  energy["leakage"] = tech.leakage_w(simd_area_mm2(params, tech)) * op.latency_s();
  return energy;
}

}  // namespace polyarch::archs::simd
