#include "archs/simd/params.h"

#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

#include "archs/soc/soc_config.h"
#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd::test {
namespace {

const std::string kUnit = R"(name: t
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 100}}
units:
  - name: gpu
    kind: simd
    count: 8
    vector: {lanes: 64, sfu_lanes: 8}
    matrix_engine: {per_core: 2, macs_per_cycle: {fp16: 256, int8: 512}}
    scratchpad: {kib: 128, bytes_per_cycle: 128}
    l2: {capacity_mib: 4, bytes_per_cycle: 1024}
    core_bytes_per_cycle: 64
)";

std::string error_of(const std::string& text) {
  return testing::error_text([&] { parse_soc_config(parse_config_text(text, "arch.yaml")); });
}

TEST(SimdParams, ParsesCoresLanesEngineAndMemories) {
  const SimdParams params = simd_params_of(parse_soc_config(parse_config_text(kUnit, "a.yaml")));
  EXPECT_EQ(params.count, 8);
  EXPECT_EQ(params.core_matrix_macs_per_cycle(ir::DType::kFp16), 512);
  EXPECT_EQ(params.core_matrix_macs_per_cycle(ir::DType::kBf16), 0);
  EXPECT_EQ(params.core_vector_elements_per_cycle(ir::DType::kFp32), 64);
  EXPECT_EQ(params.core_vector_elements_per_cycle(ir::DType::kInt8), 256);
  EXPECT_EQ(params.l2.bytes_per_cycle, 1024);
}

TEST(SimdParams, MissingLanesNamesTheKeyAndLine) {
  std::string text = kUnit;
  text.replace(text.find("lanes: 64, "), 11, "");
  const std::string error = error_of(text);
  EXPECT_NE(error.find("arch.yaml:8"), std::string::npos) << error;
  EXPECT_NE(error.find("lanes"), std::string::npos) << error;
}

TEST(SimdParams, AnUnknownEngineDtypeSuggestsTheNearest) {
  std::string text = kUnit;
  text.replace(text.find("fp16: 256"), 9, "fp61: 256");
  const std::string error = error_of(text);
  EXPECT_NE(error.find("fp16"), std::string::npos) << error;
  EXPECT_NE(error.find("arch.yaml:9"), std::string::npos) << error;
}

// The synchronous MMA rate: where given, per engine and at most the full rate; where not, the
// full rate (an engine whose synchronous path is its only one).
TEST(SimdParams, TheSynchronousMmaRateDefaultsToTheFullRateAndIsBoundedByIt) {
  const auto with_sync = [](const std::string& rates) {
    std::string text = kUnit;
    text.replace(text.find("int8: 512}"), 10, "int8: 512}, sync_macs_per_cycle: " + rates);
    return text;
  };
  const SimdParams params =
      simd_params_of(parse_soc_config(parse_config_text(with_sync("{fp16: 128}"), "a.yaml")));
  EXPECT_EQ(params.core_sync_matrix_macs_per_cycle(ir::DType::kFp16), 2 * 128);
  EXPECT_EQ(params.core_sync_matrix_macs_per_cycle(ir::DType::kInt8), 2 * 512);
  const SimdParams plain = simd_params_of(parse_soc_config(parse_config_text(kUnit, "a.yaml")));
  EXPECT_EQ(plain.core_sync_matrix_macs_per_cycle(ir::DType::kFp16), 2 * 256);
  // Faster than the engine's full rate, or for a dtype it has no rate for: named at the line.
  for (const auto& [rates, named] : {std::pair{"{fp16: 300}", "256"}, {"{bf16: 64}", "bf16"}}) {
    const std::string error = error_of(with_sync(rates));
    EXPECT_NE(error.find("arch.yaml:9"), std::string::npos) << error;
    EXPECT_NE(error.find(named), std::string::npos) << error;
  }
}

// h100_like's measured mma.sync rate: 339 MACs per tensor core per cycle, 4 per SM.
TEST(SimdParams, H100LikeRunsMmaSyncBelowTheWarpgroupRate) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  EXPECT_EQ(params.core_matrix_macs_per_cycle(ir::DType::kBf16), 2048);
  EXPECT_EQ(params.core_sync_matrix_macs_per_cycle(ir::DType::kBf16), 1356);
  EXPECT_EQ(params.core_sync_matrix_macs_per_cycle(ir::DType::kFp16), 1356);
  EXPECT_EQ(params.core_sync_matrix_macs_per_cycle(ir::DType::kFp8E4M3), 4096);
}

TEST(SimdParams, ZeroCoresIsRejected) {
  std::string text = kUnit;
  text.replace(text.find("count: 8"), 8, "count: 0");
  EXPECT_NE(error_of(text).find("count"), std::string::npos);
}

TEST(SimdParams, ShippedConfigsLoad) {
  for (const std::string file : {"h100_like.yaml", "edge_dsp_16.yaml"}) {
    const SimdParams params = simd_params_of(load_shipped(file));
    EXPECT_GT(params.count, 0) << file;
  }
  // h100_like: 2048 bf16 MACs per SM per cycle, 132 SMs at 1.83 GHz = 989.4 dense TFLOPS.
  const SocConfig h100 = load_shipped("h100_like.yaml");
  const SimdParams params = simd_params_of(h100);
  const double tflops = 2.0 * static_cast<double>(params.count) *
                        static_cast<double>(params.core_matrix_macs_per_cycle(ir::DType::kBf16)) *
                        h100.clock_ghz * 1e9 / 1e12;
  EXPECT_NEAR(tflops, 989.4, 0.5);
}

}  // namespace
}  // namespace polyarch::archs::simd::test
