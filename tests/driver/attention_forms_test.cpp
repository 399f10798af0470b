// Fused or unfused attention: a SoC whose only matrix engine has no softmax runs attention
// unfused, its GEMMs on the array and its softmax elsewhere; a GEMM-only SoC is refused naming
// the softmax; a GPU-like unit keeps the flash-style fused kernel, whose scores never reach DRAM.
#include "driver/attention_forms.h"

#include <gtest/gtest.h>

#include <map>

#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "base/error.h"
#include "compiler/frontend/layer_list.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/unfused_attention.h"
#include "driver/run.h"
#include "driver/search_options.h"

namespace polyarch::driver {
namespace {

archs::SocConfig shipped(const std::string& name) {
  return archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + name +
                                ".yaml");
}

// The mixed SoC without its PIM unit: a 128x128 systolic array and a small vector unit.
archs::SocConfig array_and_vector() {
  archs::SocConfig soc = shipped("mixed_soc");
  std::erase_if(soc.units, [](const auto& unit) { return unit->kind() == "pim"; });
  return soc;
}

ir::Graph attention_graph(const std::string& spec) { return frontend::load_workload(spec); }

std::shared_ptr<const mapping::SearchPolicy> searched() {
  SearchOptions options;
  options.no_cache = true;
  return search_policy(options, 0);
}

TEST(UnfusedAttention, GroupedQueryHeadsShareTheirKeysInBatchedProducts) {
  ir::Op attention;
  attention.name = "attn";
  attention.attrs = ir::AttentionAttrs{.b = 2, .h = 32, .kv_heads = 8, .s = 128, .kv_len = 1024,
                                       .d = 128, .causal = true};
  const lower::UnfusedAttention parts = lower::unfused_attention_ops(attention);
  const auto& qk = std::get<ir::GemmAttrs>(parts.scores.attrs);
  const auto& pv = std::get<ir::GemmAttrs>(parts.context.attrs);
  const auto& softmax = std::get<ir::SoftmaxAttrs>(parts.softmax.attrs);
  // Each of the 2*8 K/V heads serves 4 query heads of 128 queries: 512 rows.
  EXPECT_EQ(qk.batch, 16);
  EXPECT_EQ(qk.m, 512);
  EXPECT_EQ(qk.n, 1024);
  EXPECT_EQ(qk.k, 128);
  EXPECT_FALSE(qk.b_shared);
  EXPECT_EQ(pv.m, 512);
  EXPECT_EQ(pv.n, 128);
  EXPECT_EQ(pv.k, 1024);
  EXPECT_EQ(softmax.rows, 2 * 32 * 128);
  EXPECT_EQ(softmax.cols, 1024);
  // Unfused products compute every score, the masked ones too: 2 * b*h*s*kv_len*d MACs.
  EXPECT_EQ(ir::mac_count(parts.scores) + ir::mac_count(parts.context),
            2LL * 2 * 32 * 128 * 1024 * 128);
  EXPECT_EQ(parts.softmax.name, "attn.softmax");
}

TEST(AttentionForms, ArrayWithoutSoftmaxRunsTheProductsAndHandsTheSoftmaxOn) {
  archs::SocConfig soc = array_and_vector();
  soc.use_mapping_search(searched());
  ir::Graph graph = attention_graph("attention:4,12,512,64");
  const FittedGraph fitted = fit_graph_to_soc(soc, graph, /*search_forms=*/true, false);
  ASSERT_EQ(fitted.attention_forms.size(), 1u);
  const sim::AttentionForm& form = fitted.attention_forms.front();
  ASSERT_TRUE(form.fused_estimate_s && form.unfused_estimate_s);
  EXPECT_EQ(form.form, "unfused") << form.reason;
  EXPECT_LT(*form.unfused_estimate_s, *form.fused_estimate_s);
  const sim::RunResult result = simulate_workload(soc, graph);
  std::map<std::string, std::string> unit_of;
  int64_t macs = 0;
  for (const sim::OpResult& op : result.ops) {
    unit_of[op.name] = op.unit;
    macs += op.macs;
  }
  ASSERT_EQ(unit_of.size(), 3u);
  const std::string name = form.op;
  EXPECT_EQ(unit_of[name + ".qk"], "mxu");
  EXPECT_EQ(unit_of[name + ".softmax"], "vector");
  EXPECT_EQ(unit_of[name + ".pv"], "mxu");
  EXPECT_EQ(macs, 2LL * 4 * 12 * 512 * 512 * 64);
}

TEST(AttentionForms, FixedMappingsKeepAttentionFusedWhereAUnitRunsIt) {
  const archs::SocConfig soc = array_and_vector();
  ir::Graph graph = attention_graph("attention:4,12,512,64");
  const FittedGraph fitted = fit_graph_to_soc(soc, graph, /*search_forms=*/false, false);
  ASSERT_EQ(fitted.attention_forms.size(), 1u);
  EXPECT_EQ(fitted.attention_forms.front().form, "fused");
  EXPECT_EQ(graph.op_count(), 1u);
}

TEST(AttentionForms, GemmOnlyArrayIsRefusedNamingTheSoftmax) {
  const archs::SocConfig soc = shipped("tpu_v1_like");
  ir::Graph graph = attention_graph("attention:1,12,128,64");
  try {
    fit_graph_to_soc(soc, graph, true, false);
    FAIL() << "attention ran on a GEMM-only array";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("no unit runs softmax"), std::string::npos) << message;
    EXPECT_NE(message.find("mxu (systolic)"), std::string::npos) << message;
  }
}

TEST(AttentionForms, GpuKeepsTheFusedKernelWhoseScoresStayOnChip) {
  archs::SocConfig soc = shipped("h100_like");
  soc.use_mapping_search(searched());
  // 8 x 16 heads x 4096^2 bf16 scores: unfused, they are written and read back twice.
  ir::Graph graph = attention_graph("attention:8,16,4096,128");
  const FittedGraph fitted = fit_graph_to_soc(soc, graph, true, false);
  const sim::AttentionForm& form = fitted.attention_forms.front();
  EXPECT_EQ(form.form, "fused") << form.reason;
  ASSERT_TRUE(form.unfused_estimate_s);
  const double score_bytes = 8.0 * 16 * 4096 * 4096 * 2;
  const double dram_bytes_per_s = soc.memory_context().dram_bytes_per_second;
  // S written, S read, P written, P read: a floor on the unfused form's time.
  EXPECT_GE(*form.unfused_estimate_s, 4 * score_bytes / dram_bytes_per_s);
}

// hbm_pim_like without its simd host: the PIM unit runs a decode step's attention, but not
// with a block layout (its stacked caches stream one range of keys), and not the unfused form
// either (batched products, and a softmax its PUs have no exp for): refused, naming the
// pattern and the unit.
// plasticine_like's dataflow fabric runs attention only as its three loops over one range of
// keys: a block layout runs unfused (every score computed, the softmax masking them), and the
// form's reason says why not fused.
TEST(AttentionForms, ADataflowFabricRunsABlockLayoutUnfusedAndSaysWhy) {
  const archs::SocConfig soc = shipped("plasticine_like");
  ir::Graph graph = frontend::layer_list_from_config(
      parse_config_text("layers:\n  - {name: a, op: attention, h: 2, s: 128, d: 16, "
                        "dtype: fp16, block_sparse: {block: 32, local: 1, global: 1}}\n",
                        "w.yaml"),
      "w");
  const FittedGraph fitted = fit_graph_to_soc(soc, graph, true, false);
  ASSERT_EQ(fitted.attention_forms.size(), 1u);
  const sim::AttentionForm& form = fitted.attention_forms.front();
  EXPECT_EQ(form.form, "unfused");
  EXPECT_NE(form.reason.find("'a' has a block-sparse attention pattern, which the models of "
                             "fabric (dataflow) do not run"),
            std::string::npos)
      << form.reason;
}

TEST(AttentionForms, APimUnitRefusesABlockLayoutByName) {
  archs::SocConfig soc = shipped("hbm_pim_like");
  std::erase_if(soc.units, [](const auto& unit) { return unit->kind() != "pim"; });
  ASSERT_EQ(soc.units.size(), 1u);
  ir::Graph graph = frontend::layer_list_from_config(
      parse_config_text("layers:\n  - {name: a, op: attention, h: 2, s: 1, kv_len: 64, d: 16, "
                        "dtype: fp16, "
                        "block_sparse: {block: 16, local: 3, global: 1}}\n",
                        "w.yaml"),
      "w");
  try {
    fit_graph_to_soc(soc, graph, true, false);
    FAIL() << "a block layout ran on a PIM unit";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("'a' has a block-sparse attention pattern, which the models of pim (pim) "
                        "do not run"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace polyarch::driver
