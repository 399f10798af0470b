#include "archs/simd/plan_activity.h"

#include "base/checked_math.h"

namespace polyarch::archs::simd {

namespace {

// An engine instruction covers 32 bytes of K (PTX ISA: mma m16n8k16 and wgmma m64nNk16 for
// 16-bit operands, k32 for 8-bit): it reads and writes its accumulators once per 32 bytes of K.
constexpr int64_t kEngineKBytes = 32;

}  // namespace

SimdActivity simd_activity(const KernelPlan& plan) {
  return {plan.matrix_macs, plan.vector_ops, plan.sfu_ops};
}

// The plan's activity in the result, so that energy follows from the result alone
// (archs/simd/energy.h): compute counts in mapping.activity; the memories in `sram`, in BYTES.
// register_file: a lane op reads two operands and writes one result; an SFU op reads and writes
// 4 bytes; a matrix MAC's share of its accumulator read and write. scratchpad: each staged byte
// written once and read once. l2: reads are the cores' L2 traffic (the mapper's l2_bytes) and
// DRAM write-backs, writes are DRAM fills.
void record_plan_activity(const KernelPlan& plan, sim::OpResult& result) {
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
  record_activity(simd_activity(plan), result.mapping);
}

}  // namespace polyarch::archs::simd
