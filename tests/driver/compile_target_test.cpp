// `--layout auto` on the shipped architectures: the first unit that runs convolutions decides,
// and it answers for its own engine (systolic arrays and SIMD cores form im2col rows from
// contiguous channels, so NHWC; crossbars and MIMD cores are modelled on the import's NCHW).
#include <gtest/gtest.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "driver/compile_target.h"

namespace polyarch::driver {
namespace {

std::optional<ir::Layout> layout_of(const std::string& arch) {
  return target_conv_layout(
      archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + arch));
}

TEST(CompileTarget, SystolicAndSimdTargetsPreferNhwc) {
  EXPECT_EQ(layout_of("tpu_v1_like.yaml"), ir::Layout::kNhwc);
  EXPECT_EQ(layout_of("h100_like.yaml"), ir::Layout::kNhwc);
  EXPECT_EQ(layout_of("mixed_soc.yaml"), ir::Layout::kNhwc);
}

TEST(CompileTarget, CrossbarAndMimdTargetsKeepNchw) {
  EXPECT_EQ(layout_of("isaac_like.yaml"), ir::Layout::kNchw);
  EXPECT_EQ(layout_of("cpu64_like.yaml"), ir::Layout::kNchw);
}

}  // namespace
}  // namespace polyarch::driver
