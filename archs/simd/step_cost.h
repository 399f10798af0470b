#pragma once
// The cost of one step of work on the active cores: the largest of the times the matrix
// engine, the vector and special-function lanes, the scratchpad, each core's L2 port, the
// shared L2 and a latency floor need for it. Every simd mapper builds its steps from this.
#include <cstdint>

#include "archs/simd/kernel_plan.h"
#include "archs/simd/params.h"

namespace polyarch::archs::simd {

// Work of ONE core in one step, and how many cores do the same at once.
struct CoreWork {
  int64_t matrix_macs = 0;      // on the matrix engine, at `matrix_macs_per_cycle`
  int64_t matrix_macs_per_cycle = 0;
  int64_t vector_ops = 0;       // element operations on the vector lanes
  int64_t vector_ops_per_cycle = 0;
  int64_t sfu_ops = 0;          // transcendental results
  int64_t scratchpad_bytes = 0;
  int64_t l2_bytes = 0;         // through this core's port (from L2 or DRAM)
  int64_t latency_floor_cycles = 0;
  int64_t active_cores = 1;
  // Matrix and vector/SFU work serialise (one instruction stream feeds both and each waits on
  // the other's results, as in a flash-attention iteration) rather than overlap.
  bool serialize_matrix_and_vector = false;
};

KernelStep step_cost(const SimdParams& params, const CoreWork& work);

}  // namespace polyarch::archs::simd
