#include "archs/simd/plan_activity.h"

#include "base/checked_math.h"

namespace polyarch::archs::simd {

namespace {

// An engine instruction covers 32 bytes of K (PTX ISA: mma m16n8k16 and wgmma m64nNk16 for
// 16-bit operands, k32 for 8-bit): it reads and writes its accumulators once per 32 bytes of K.
constexpr int64_t kEngineKBytes = 32;
// Accumulators one thread holds per MMA instruction (PTX ISA fragment layouts): mma.sync
// m16n8kK spreads its 16 x 8 outputs over a warp's 32 threads; wgmma m64nNkK spreads 64 x N over
// a warpgroup's 128 threads, N at most 256.
constexpr int64_t kSyncMmaOutputsPerThread = 16 * 8 / 32;
constexpr int64_t kWgmmaOutputsPerThread = 64 * 256 / 128;
// The widest per-thread load or store (PTX ld.global.v4.b32): 16 bytes.
constexpr int64_t kThreadAccessBytes = 16;

// Whether the plan's MMAs are mma.sync: the engine has no faster asynchronous path for the type,
// or the plan's compute ceiling is the synchronous rate (FlashAttention-2, a synchronous GEMM).
bool issues_sync_mma(const KernelPlan& plan, const SimdParams& params, ir::DType dtype) {
  const int64_t sync_rate = params.core_sync_matrix_macs_per_cycle(dtype);
  if (sync_rate >= params.core_matrix_macs_per_cycle(dtype)) return true;
  const double sync_ceiling =
      2.0 * static_cast<double>(sync_rate) * static_cast<double>(params.count);
  return plan.peak_flops_per_cycle == sync_ceiling;
}

}  // namespace

int64_t plan_thread_instructions(const KernelPlan& plan, const SimdParams& params) {
  int64_t instructions = plan.sfu_ops;
  for (const auto& [dtype, ops] : plan.vector_ops) {
    const int64_t per_lane = params.core_vector_elements_per_cycle(dtype) / params.vector.lanes;
    instructions = checked_add(instructions, ceil_div(ops, per_lane), "instructions");
  }
  for (const auto& [dtype, macs] : plan.matrix_macs) {
    const int64_t outputs = issues_sync_mma(plan, params, dtype) ? kSyncMmaOutputsPerThread
                                                                 : kWgmmaOutputsPerThread;
    const int64_t macs_per_instruction = outputs * (kEngineKBytes / ir::dtype_bytes(dtype));
    instructions =
        checked_add(instructions, ceil_div(macs, macs_per_instruction), "instructions");
  }
  return checked_add(instructions, ceil_div(plan.l2_bytes, kThreadAccessBytes), "instructions");
}

SimdActivity simd_activity(const KernelPlan& plan, const SimdParams& params) {
  return {plan.matrix_macs, plan.vector_ops, plan.sfu_ops,
          plan_thread_instructions(plan, params)};
}

// The plan's activity in the result, so that energy follows from the result alone
// (archs/simd/energy.h): compute counts in mapping.activity; the memories in `sram`, in BYTES.
// register_file: a lane op reads two operands and writes one result; an SFU op reads and writes
// 4 bytes; a matrix MAC's share of its accumulator read and write. scratchpad: each staged byte
// written once and read once. l2: reads are the cores' L2 traffic (the mapper's l2_bytes) and
// DRAM write-backs, writes are DRAM fills.
SimdActivity record_plan_activity(const KernelPlan& plan, const SimdParams& params,
                                  sim::OpResult& result) {
  int64_t register_reads = 0;
  int64_t register_writes = 0;
  for (const auto& [dtype, ops] : plan.vector_ops) {
    const int64_t bytes = checked_mul(ops, ir::dtype_bytes(dtype), "bytes");
    register_reads = checked_add(register_reads, checked_mul(2, bytes, "bytes"), "bytes");
    register_writes = checked_add(register_writes, bytes, "bytes");
  }
  for (const auto& [dtype, macs] : plan.matrix_macs) {
    const int64_t k_steps = macs / (kEngineKBytes / ir::dtype_bytes(dtype));
    const int64_t bytes = checked_mul(k_steps, kAccumulatorBytes, "bytes");
    register_reads = checked_add(register_reads, bytes, "bytes");
    register_writes = checked_add(register_writes, bytes, "bytes");
  }
  const int64_t sfu_bytes = checked_mul(plan.sfu_ops, 4, "bytes");
  result.sram["register_file"] = {checked_add(register_reads, sfu_bytes, "bytes"),
                                  checked_add(register_writes, sfu_bytes, "bytes")};
  result.sram["scratchpad"] = {plan.scratchpad_bytes, plan.scratchpad_bytes};
  result.sram["l2"] = {checked_add(plan.l2_bytes, plan.dram_write_bytes, "bytes"),
                       plan.dram_read_bytes};
  const SimdActivity activity = simd_activity(plan, params);
  record_activity(activity, result.mapping);
  return activity;
}

}  // namespace polyarch::archs::simd
