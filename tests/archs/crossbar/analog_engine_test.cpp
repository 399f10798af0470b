// The crossbar's analog engine in the reference interpreter on a real model (tiny_cnn): an
// ideal crossbar reproduces the fp32 run, ADC error grows as bits drop, and the `analog:` keys
// are validated.
#include "archs/crossbar/analog_engine.h"

#include <gtest/gtest.h>

#include "archs/crossbar/kind.h"
#include "compiler/interp/interpreter.h"
#include "compiler/lower/pipeline.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/interp/reference_models.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::crossbar {
namespace {

CrossbarParams isaac_like() {
  const SocConfig soc =
      load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/isaac_like.yaml");
  for (const auto& unit : soc.units) {
    if (const auto* xbar = dynamic_cast<const CrossbarUnitConfig*>(unit.get())) {
      return xbar->params();
    }
  }
  return {};
}

CrossbarParams effects_off(CrossbarParams params) {
  params.analog = AnalogParams{};
  return params;
}

// tiny_cnn's logits with and without the engine.
struct Logits {
  interp::DenseTensor analog;
  interp::DenseTensor ideal;
};
Logits tiny_cnn_logits(const CrossbarParams& params) {
  const interp::testing::ReferenceModel model = interp::testing::reference_models().front();
  ir::Graph graph = interp::testing::imported(model);
  lower::standard_pipeline().run(graph);
  const std::vector<interp::NamedTensor> inputs = interp::testing::reference_inputs(graph, model);
  AnalogMvmEngine engine(params, 1);
  return {interp::run_graph(graph, inputs, &engine).at(0).tensor,
          interp::run_graph(graph, inputs).at(0).tensor};
}

TEST(AnalogEngine, AnIdealCrossbarMatchesTheFp32RunWithinOneInTenThousand) {
  CrossbarParams params = effects_off(isaac_like());
  params.adc.bits = 9;  // 128 rows x 1 x 3 = 384: every partial sum exact
  const Logits logits = tiny_cnn_logits(params);
  EXPECT_LT(interp::testing::relative_error(logits.analog, logits.ideal), 1e-4);
  EXPECT_GT(interp::testing::relative_error(logits.analog, logits.ideal), 0.0);  // 16-bit codes
}

TEST(AnalogEngine, OutputErrorGrowsMonotonicallyAsAdcBitsDropFromEightToFour) {
  double previous = 0.0;
  for (int64_t bits = 8; bits >= 4; --bits) {
    CrossbarParams params = effects_off(isaac_like());
    params.adc.bits = bits;
    const Logits logits = tiny_cnn_logits(params);
    const double error = interp::testing::relative_error(logits.analog, logits.ideal);
    EXPECT_GT(error, previous) << bits << " ADC bits";
    previous = error;
  }
}

TEST(AnalogEngine, StatisticsCountConversionsAndAttentionStaysDigital) {
  CrossbarParams params = effects_off(isaac_like());
  AnalogMvmEngine engine(params, 1);
  const ir::Op fc = test_support::make_op("fc", ir::GemmAttrs{.m = 2, .n = 20, .k = 200});
  EXPECT_TRUE(engine.accepts(fc));
  ir::GemmAttrs scores{.m = 8, .n = 8, .k = 16};
  scores.b_shared = false;  // Q K^T: per-batch B, not static weights
  EXPECT_FALSE(engine.accepts(test_support::make_op("qk", scores)));
  const std::vector<float> activations(2 * 200, 0.5f), weights(200 * 20, 0.25f);
  engine.multiply({fc, 0, 2, 200, 20, activations, weights});
  const nlohmann::ordered_json stats = engine.op_stats("fc");
  // 2 vectors x 2 row blocks x 16 input bits x 20 weights x 8 cells.
  EXPECT_EQ(stats["adc_conversions"], 2 * 2 * 16 * 20 * 8);
  EXPECT_EQ(stats["arrays"], 2 * 2);  // 160 columns over 128-column arrays
  EXPECT_TRUE(engine.op_stats("qk").is_null());
}

TEST(AnalogEngine, CodesTooNarrowOrTooWideAreBadInput) {
  CrossbarParams params = isaac_like();
  params.weight_bits = 1;
  const std::string error = testing::error_text([&] { AnalogMvmEngine(params, 0); });
  EXPECT_NE(error.find("weight_bits"), std::string::npos) << error;
}

std::string arch_error(const std::string& analog) {
  const std::string text = R"(name: t
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 10}}
units:
  - name: x
    kind: crossbar
    tiles: 1
    arrays_per_tile: 1
    rows: 64
    cols: 64
    cell: {bits_per_cell: 2}
    adc: {bits: 8, columns_per_adc: 8, sample_rate_gsps: 1, energy_pj: 1}
    read_ns: 10
    analog: )" + analog + "\n";
  return testing::error_text([&] { parse_soc_config(parse_config_text(text, "arch.yaml")); });
}

TEST(AnalogParams, KeysAreValidated) {
  EXPECT_NE(arch_error("{read_sigmaa: 0.1}").find("read_sigmaa"), std::string::npos);
  EXPECT_NE(arch_error("{program_sigma: -1}").find("program_sigma"), std::string::npos);
  EXPECT_NE(arch_error("{program_variation: uniform}").find("program_variation"),
            std::string::npos);
  EXPECT_NE(arch_error("{stuck_at_zero_rate: 0.6, stuck_at_one_rate: 0.6}").find("exceed 1"),
            std::string::npos);
}

}  // namespace
}  // namespace polyarch::archs::crossbar
