// A PU as programmable cores (UPMEM DPUs): cycles per streamed byte derived by hand from the
// pipeline's dispatch interval and the DMA's alpha + beta x size, the published bounds they
// imply (the pipeline saturating at 11 threads, MRAM bandwidth under 2 bytes per cycle), and the
// UPMEM-like preset's GEMV paced by its cores rather than by SIMD lanes.
#include "archs/pim/core_timing.h"

#include <gtest/gtest.h>

#include "archs/pim/cost_model.h"
#include "archs/pim/kind.h"
#include "archs/soc/soc_config.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::pim {
namespace {

// PrIM's vector addition on int32 (b[i] += a[i]): per element 3 loop instructions, 2 loads, a
// store and an add (7 instructions) over 12 bytes: 8 read from the bank, 4 written back.
constexpr CoreKernel kVectorAddInt32{7.0 / 12.0, 8.0 / 12.0};

// Per element of b[i] += a[i] on int32: 7 instructions, and transfers of 8 bytes read and 4
// written: (8 x (77 + 512) + 4 x (61 + 512)) / 1024 = 6.84 DMA cycles.
constexpr double kVectorAddDmaCycles = (8.0 * 589.0 + 4.0 * 573.0) / 1024.0;

TEST(PimCoreTiming, SixteenThreadsIssueOneInstructionPerCycleBehindTheirTransfers) {
  PimCoreParams core;  // alpha 77 / 61, beta 0.5, 1024-byte blocks, dispatch every 11 cycles
  for (int64_t threads : {16, 24}) {
    core.tasklets = threads;
    // One instruction per cycle: 7 cycles per element; the DMA engine needs 6.84, and each
    // thread's own chain of 7 x 11 + 6.84 cycles spread over 16 threads is 5.24.
    EXPECT_DOUBLE_EQ(core_cycles_per_byte(core, kVectorAddInt32) * 12.0, 7.0) << threads;
  }
  // 11 threads fill the pipeline only while none waits for its transfer; with them, each
  // thread's 77 + 6.84 cycles per element over 11 threads bound it, and over 10 more so.
  for (int64_t threads : {11, 10}) {
    core.tasklets = threads;
    EXPECT_DOUBLE_EQ(core_cycles_per_byte(core, kVectorAddInt32) * 12.0,
                     (77.0 + kVectorAddDmaCycles) / static_cast<double>(threads))
        << threads;
  }
}

TEST(PimCoreTiming, OneThreadWaitsForItsOwnTransfersAndEveryDispatchInterval) {
  PimCoreParams core;
  core.tasklets = 1;
  // Per element: 7 instructions 11 cycles apart, plus the element's share of its own transfers.
  const double per_element = 7.0 * 11.0 + kVectorAddDmaCycles;
  EXPECT_DOUBLE_EQ(core_cycles_per_byte(core, kVectorAddInt32) * 12.0, per_element);
}

TEST(PimCoreTiming, DmaAloneStaysUnderTwoBytesPerCycle) {
  PimCoreParams core;
  core.dma_block_bytes = 2048;
  const CoreKernel copy{0.0, 1.0};  // transfers only, as a DMA copy
  const double cycles_per_byte = core_cycles_per_byte(core, copy);
  // 2048 bytes in 77 + 0.5 x 2048 = 1101 cycles: 651 MB/s at 350 MHz, under 2 B/cycle = 700 MB/s.
  EXPECT_DOUBLE_EQ(cycles_per_byte, 1101.0 / 2048.0);
  EXPECT_LT(350e6 / cycles_per_byte, 700e6);
  // Smaller blocks pay alpha more often: 8-byte transfers take (77 + 4) / 8 cycles per byte.
  core.dma_block_bytes = 8;
  EXPECT_DOUBLE_EQ(core_cycles_per_byte(core, copy), 81.0 / 8.0);
}

TEST(PimCoreTiming, UpmemPresetGemvIsPacedByItsCoresInstructions) {
  const SocConfig soc =
      load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/upmem_like.yaml");
  PimParams params;
  for (const auto& unit : soc.units) {
    if (const auto* pim = dynamic_cast<const PimUnitConfig*>(unit.get())) params = pim->params();
  }
  ASSERT_TRUE(params.core.has_value());
  ir::Op op = test_support::make_op("gemv", ir::GemmAttrs{.m = 1, .n = 4096, .k = 4096});
  op.dtype = ir::DType::kInt8;
  const PimPlan plan = plan_op(params, op);
  // Each of a rank-bank's 8 DPUs takes 8 bytes of a 64-byte DDR4 burst: 8 int8 weights at
  // 3 loop instructions + 2 loads + a multiply + an add = 7 cycles each with 16 threads: 56 DPU
  // cycles at 350 MHz = 256 command-clock cycles at 1600 MHz.
  ASSERT_FALSE(plan.segments.empty());
  EXPECT_EQ(plan.segments.front().compute_cycles_per_burst, 256);
  EXPECT_EQ(plan.bound, "compute");
  // Bound: no DPU multiplies faster than one MAC per 7 of its cycles (2560 DPUs at 350 MHz).
  const double seconds = static_cast<double>(plan.stream_cycles) / 1600e6;
  EXPECT_LE(static_cast<double>(plan.macs) / seconds, 2560 * 350e6 / 7.0);
}

}  // namespace
}  // namespace polyarch::archs::pim
