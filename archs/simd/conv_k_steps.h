#pragma once
// How a library's implicit-GEMM convolution walks the GEMM's K = R x S x C (README.md "GEMM and
// convolution"), decided from the channel row's bytes as CUTLASS's kernels decide it:
// - a row of a multiple of 16 bytes is loaded by TMA in im2col mode (the SM90 convolution
//   mainloop, collective/sm90_implicit_gemm_gmma_ss_warpspecialized.hpp: can_implement asks
//   128-bit alignment), one filter tap per K step with the tap's C channels sliced to BK and
//   the slice zero-filled beyond C (the analytic and optimized activation iterators step the
//   same way: conv2d_fprop_activation_tile_access_iterator_analytic.h advance() moves s, then r,
//   then c by the tile's K);
// - a smaller row that is a multiple of 4 bytes (cp.async copies 4, 8 or 16 bytes, PTX ISA)
//   is packed by the few- and fixed-channels iterators (..._few_channels.h flattens (r, s, c)
//   into one index and needs C to be a multiple of its access; ..._fixed_channels.h needs C to
//   equal it): K is one contiguous run sliced as a GEMM's;
// - any other row (3 channels of a 16-bit type: 6 bytes) steps tap by tap.
// CUTLASS's CUDA-core (SIMT) convolutions use the same activation iterators, so the lanes step
// K the same way, except a depthwise convolution (one channel per group), which runs as a
// direct convolution with no K slices (conv/kernel/direct_convolution.h, for depthwise only).
// Rows no TMA loads (the last two) are staged by the CUTLASS 2.x multistage mainloop, whose
// warp-level MMAs are the engine's synchronous ones (mma.sync) and which needs at least two of
// them along each K slice (mma_multistage.h: "requires at least two warp-level GEMM
// operations").
#include <cstdint>

#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

struct ConvKSteps {
  // Filter taps K is stepped through one at a time (each step one tap's channel slice);
  // 1 when K is one contiguous run (a GEMM, a 1x1 convolution, taps packed).
  int64_t taps = 1;
  // The same on the vector lanes.
  int64_t lane_taps = 1;
  // The engine runs its synchronous MMA, with K slices of at least two of its K steps.
  bool sync_engine = false;
};

// Bytes of K one synchronous MMA instruction takes in CUTLASS's SM80 tensor-op kernels:
// InstructionShape 16x8x16 for 16-bit operands, 16x8x32 for 8-bit ones
// (gemm/device/default_gemm_configuration.h).
inline constexpr int64_t kSyncMmaKBytes = 32;
// Warp-level MMAs the multistage mainloop needs along one K slice (mma_multistage.h).
inline constexpr int64_t kSyncMmaKStepsPerSlice = 2;

// How `op` (a GEMM or a convolution) steps K with operands of `elem_bytes` bytes.
ConvKSteps conv_k_steps(const ir::Op& op, int64_t elem_bytes);

}  // namespace polyarch::archs::simd
