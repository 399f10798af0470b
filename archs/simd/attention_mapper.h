#pragma once
// Attention on a simd unit. Fused (flash-style): one work item per (sequence, head, block of Br
// queries, KV split); each walks its keys in blocks of Bc: S = Q K^T on the matrix engine, the
// online softmax on the lanes (exp on the special-function lanes), O += P V; causal masking
// skips the blocks above the diagonal. The mapper searches Br, Bc and the KV split (flash
// decoding). Unfused, for comparison: the QK^T GEMM, a softmax over S in DRAM and the PV GEMM.
// The op's kernel (ir::AttentionKernel) sets the matrix path: flash3 the engine's full rate
// (warpgroup MMAs, rows padded to min_tile_m) with the softmax under the MMAs, flash2 its
// synchronous rate (mma.sync, sync_macs_per_cycle) after them, with the library's own launch
// (flash2_launch.h: tile, KV splits) and its items dispatched as a block scheduler does
// (item_dispatch.h).
// Equations: README.md "Attention".
#include <optional>
#include <vector>

#include "archs/simd/kernel_plan.h"
#include "archs/simd/memory_view.h"
#include "archs/simd/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

// Whether the op's stated kernel (ir::AttentionKernel) is a fused library kernel with no
// unfused alternative: FlashAttention-2 runs fused whatever it costs (unfused only where no
// fused tiling fits). The default, a plan of the unit's own, weighs the unfused kernels too.
bool runs_only_fused(const ir::AttentionAttrs& attention);

struct FlashTiling {
  int64_t block_q = 0;   // Br
  int64_t block_kv = 0;  // Bc
  int64_t kv_split = 1;
};

// The tiling a stated library kernel launches with, where it fixes one (FlashAttention-2:
// flash2_launch.h); a tile of 0 x 0 where the library refuses the head dim. nullopt: searched.
std::optional<FlashTiling> library_tiling(const SimdParams& params,
                                          const ir::AttentionAttrs& attention);

// The fused tilings a plan weighs: each dimension's candidate values, the library's one launch
// where the op states one (library_tiling), else Br 16-256, Bc 32-256 and 1-64 KV splits. The
// mapping search (attention_space.h) and plan_attention both take them from here.
struct FlashCandidates {
  std::vector<int64_t> block_q;
  std::vector<int64_t> block_kv;
  std::vector<int64_t> kv_split;
};
FlashCandidates flash_candidates(const SimdParams& params, const ir::AttentionAttrs& attention);

// One fused tiling's plan; nullopt where it does not fit the registers or the scratchpad (or is
// not the stated library's launch). Each item's Q block comes from DRAM: its first bytes take
// `dram_latency_cycles` (at least the L2's hit latency).
std::optional<KernelPlan> plan_flash_tiling(const SimdParams& params,
                                            const ir::AttentionAttrs& attention, ir::DType dtype,
                                            const FlashTiling& tiling,
                                            int64_t dram_latency_cycles);

// The unfused kernels, each with its own launch (`launch_cycles` per kernel).
KernelPlan plan_unfused_attention(const SimdParams& params, const ir::AttentionAttrs& attention,
                                  ir::DType dtype, const MemoryView& memory,
                                  int64_t launch_cycles);

// The faster of the best fused tiling and the unfused kernels; its mapping names both.
KernelPlan plan_attention(const SimdParams& params, const ir::AttentionAttrs& attention,
                          ir::DType dtype, const MemoryView& memory, int64_t launch_cycles);

}  // namespace polyarch::archs::simd
