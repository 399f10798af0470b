// The mimd GEMM mapping space: the grid the estimate chooses is no slower in simulation than any
// other, a searched grid simulates within 5% of its estimate, and every searcher is deterministic
// for a seed.
#include "archs/mimd/mimd_space.h"

#include <gtest/gtest.h>

#include "archs/mimd/kind.h"
#include "tests/support/ir_builders.h"
#include "tests/support/searched_run.h"

namespace polyarch::archs::mimd {
namespace {

using test_support::make_op;

constexpr const char* kArch = "cpu64_like.yaml";

struct Unit {
  MimdParams params;
  MimdMemoryView memory;
  double clock_ghz = 1;
};

Unit cpu64() {
  const SocConfig soc =
      load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + kArch);
  const auto& config = dynamic_cast<const MimdUnitConfig&>(*soc.units.front());
  const double clock_ghz = config.params().clock_ghz.value_or(soc.clock_ghz);
  const MemoryContext memory = soc.memory_context();
  return {config.params(),
          sim::memory_view(memory.dram_bytes_per_second, memory.dram_latency_s, clock_ghz),
          clock_ghz};
}

std::vector<ir::Op> shapes() {
  ir::Op batched =
      make_op("attention_scores",
              ir::GemmAttrs{.m = 128, .n = 128, .k = 64, .batch = 48, .b_shared = false});
  return {make_op("bert_qkv", ir::GemmAttrs{.m = 512, .n = 768, .k = 768}),
          make_op("bert_ffn1", ir::GemmAttrs{.m = 512, .n = 3072, .k = 768}),
          make_op("decode_gemv", ir::GemmAttrs{.m = 1, .n = 4096, .k = 4096}),
          make_op("resnet_conv3", ir::Conv2dAttrs{.n = 1,
                                                  .c = 128,
                                                  .h = 28,
                                                  .w = 28,
                                                  .k = 128,
                                                  .r = 3,
                                                  .s = 3,
                                                  .pad_h = 1,
                                                  .pad_w = 1}),
          batched};
}

std::shared_ptr<const mapping::SearchPolicy> policy(const std::string& searcher, uint64_t seed) {
  auto result = std::make_shared<mapping::SearchPolicy>();
  result->searcher = searcher;
  result->options = {.seed = seed, .max_evaluations = 40};
  return result;
}

TEST(MimdGemmSpace, AGemvOrABatchOfGemmsHasOneGrid) {
  const Unit unit = cpu64();
  for (const ir::Op& op : shapes()) {
    const MimdGemmMappingProblem problem(unit.params, op, unit.memory, unit.clock_ghz);
    // A GEMV has one row to split and the batch fills the cores GEMM by GEMM: one grid each.
    const bool one_grid = op.name == "decode_gemv" || op.name == "attention_scores";
    EXPECT_EQ(problem.space().size() == 1, one_grid) << op.name;
  }
}

// The estimate chooses the grid; the SystemC model (cores, caches' miss windows, the mesh's links
// and the DRAM queue), an independent model of the same unit, runs every grid of the space and
// must not find one clearly faster than the chosen. "Clearly": 5%, since on these BERT-sized
// GEMMs the cores' loads queue on the mesh links next to the memory ports, which the estimate
// prices by each link's load but not its queueing (2.2% on bert_qkv, where 6x10 beats 8x8).
TEST(MimdGemmSpace, TheChosenGridSimulatesNoSlowerThanAnyOther) {
  const Unit unit = cpu64();
  for (const ir::Op& op : shapes()) {
    const MimdGemmMappingProblem problem(unit.params, op, unit.memory, unit.clock_ghz);
    if (problem.space().size() == 1) continue;
    const mapping::SearchResult best = mapping::exhaustive_search(problem, mapping::Objective{});
    ASSERT_TRUE(best.found()) << op.name;
    const std::string chosen = problem.space().describe(best.best);
    const double chosen_s =
        test_support::run_pinned(kArch, "mimd", op, chosen).simulated.latency_s();
    for (int64_t rank = 0; rank < problem.space().size(); ++rank) {
      const mapping::MappingPoint point = problem.space().unrank(rank);
      if (point == best.best || !problem.valid(point)) continue;
      const std::string other = problem.space().describe(point);
      const double other_s =
          test_support::run_pinned(kArch, "mimd", op, other).simulated.latency_s();
      EXPECT_LE(chosen_s, 1.05 * other_s)
          << op.name << ": " << chosen << " " << chosen_s << " s, " << other << " " << other_s
          << " s";
    }
  }
}

// Large GEMMs, where the cores' NoC links and DRAM queue do not contend for long (on BERT-sized
// GEMMs the 64 cores' simultaneous loads queue on the mesh links next to the memory ports and the
// simulation runs 10-25% over the estimate, which prices each link's load but not the queueing).
std::vector<ir::Op> uncontended_shapes() {
  return {make_op("gemm_4k", ir::GemmAttrs{.m = 4096, .n = 4096, .k = 4096}),
          make_op("gemv_16k", ir::GemmAttrs{.m = 1, .n = 16384, .k = 8192}),
          make_op("gemm_tall", ir::GemmAttrs{.m = 8192, .n = 1024, .k = 4096})};
}

TEST(MimdGemmSpace, SearchedGridSimulatesWithinFivePercentOfItsEstimate) {
  for (const ir::Op& op : uncontended_shapes()) {
    for (const auto& [searcher, seed] :
         std::vector<std::pair<std::string, uint64_t>>{{"exhaustive", 0}, {"annealing", 3}}) {
      const test_support::SearchedOpRun run =
          test_support::run_searched(kArch, "mimd", op, policy(searcher, seed));
      ASSERT_TRUE(run.simulated.mapping.contains("search")) << op.name;
      EXPECT_EQ(run.simulated.mapping["search"]["searcher"], searcher);
      // The module's own estimate of the plan it ran (its memory view of the DRAM channel).
      const auto estimate = run.simulated.mapping["estimate_cycles"].get<double>();
      EXPECT_NEAR(static_cast<double>(run.simulated.total_cycles), estimate, 0.05 * estimate)
          << op.name << " " << searcher << " seed " << seed << ": "
          << run.simulated.mapping["search"]["point"];
    }
  }
}

TEST(MimdGemmSpace, ExhaustiveSearchLeavesTheRunUnchanged) {
  const ir::Op op = shapes()[1];
  const test_support::SearchedOpRun own = test_support::run_searched(kArch, "mimd", op, nullptr);
  const test_support::SearchedOpRun searched =
      test_support::run_searched(kArch, "mimd", op, policy("exhaustive", 0));
  EXPECT_EQ(searched.simulated.total_cycles, own.simulated.total_cycles);
  EXPECT_DOUBLE_EQ(searched.estimate_s, own.estimate_s);
  EXPECT_FALSE(own.simulated.mapping.contains("search"));
}

TEST(MimdGemmSpace, SearchIsDeterministicForASeed) {
  const Unit unit = cpu64();
  const MimdGemmMappingProblem problem(unit.params, shapes()[1], unit.memory, unit.clock_ghz);
  test_support::expect_deterministic_searches(problem, 11);
}

}  // namespace
}  // namespace polyarch::archs::mimd
