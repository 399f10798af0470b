// A GPT-3-175B-shaped workload (96 layers, hidden 12288, 96 heads, seq 2048, batch 64) runs end
// to end without any 64-bit counter overflowing: ~2.3e16 MACs, ~3.5e11 cycles on a 256x256 array.
#include <gtest/gtest.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"

namespace polyarch::driver {
namespace {

std::string gpt3_layer_list() {
  constexpr int64_t kHidden = 12288, kHeads = 96, kSeq = 2048, kBatch = 64, kLayers = 96;
  constexpr int64_t kTokens = kSeq * kBatch, kHeadDim = kHidden / kHeads;
  const std::string tokens = std::to_string(kTokens);
  const std::string hidden = std::to_string(kHidden);
  const std::string heads = std::to_string(kBatch * kHeads);
  std::string text = "name: gpt3_175b_prefill\nlayers:\n";
  for (int64_t layer = 0; layer < kLayers; ++layer) {
    const std::string prefix = "  - {name: l" + std::to_string(layer) + ".";
    text += prefix + "qkv, op: gemm, m: " + tokens + ", n: " + std::to_string(3 * kHidden) +
            ", k: " + hidden + "}\n";
    text += prefix + "scores, op: gemm, batch: " + heads + ", m: " + std::to_string(kSeq) +
            ", n: " + std::to_string(kSeq) + ", k: " + std::to_string(kHeadDim) + "}\n";
    text += prefix + "context, op: gemm, batch: " + heads + ", m: " + std::to_string(kSeq) +
            ", n: " + std::to_string(kHeadDim) + ", k: " + std::to_string(kSeq) + "}\n";
    text += prefix + "proj, op: gemm, m: " + tokens + ", n: " + hidden + ", k: " + hidden + "}\n";
    text += prefix + "ffn1, op: gemm, m: " + tokens + ", n: " + std::to_string(4 * kHidden) +
            ", k: " + hidden + "}\n";
    text += prefix + "ffn2, op: gemm, m: " + tokens + ", n: " + hidden +
            ", k: " + std::to_string(4 * kHidden) + "}\n";
  }
  return text;
}

TEST(LargeWorkload, Gpt3SizedPrefillRunsWithoutOverflow) {
  archs::SocConfig soc =
      archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/tpu_v1_like.yaml");
  // Its tensors, all live at once, take about 7.5 TiB: a DRAM that holds them, since the test is
  // about counters, not capacity.
  soc.dram.capacity_gib = 1024.0 * 1024.0;
  const ir::Graph graph =
      frontend::layer_list_from_config(parse_config_text(gpt3_layer_list(), "gpt3.yaml"), "gpt3");
  const sim::RunResult result = simulate_workload(soc, graph);
  ASSERT_EQ(result.ops.size(), 96u * 6u);
  int64_t macs = 0;
  int64_t previous_end = 0;
  for (const sim::OpResult& op : result.ops) {
    ASSERT_GT(op.macs, 0) << op.name;
    ASSERT_GE(op.total_cycles, op.compute_cycles) << op.name;
    ASSERT_GE(op.start_cycle, previous_end) << op.name;  // in order, no wrap-around
    previous_end = op.end_cycle;
    macs += op.macs;
  }
  // 96 x (tokens * hidden * (3h + h + 4h + 4h) + 2 * heads * seq^2 * head_dim)
  const int64_t expected = 96 * (int64_t{131072} * 12288 * (12 * int64_t{12288}) +
                                 2 * int64_t{6144} * 2048 * 2048 * 128);
  EXPECT_EQ(macs, expected);
  // A 256x256 array cannot beat one MAC per PE per cycle.
  EXPECT_GE(result.summary.total_cycles, expected / (256 * 256));
  EXPECT_GT(result.summary.latency_s, 0.0);
}

}  // namespace
}  // namespace polyarch::driver
