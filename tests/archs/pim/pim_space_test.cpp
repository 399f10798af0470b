// The pim GEMM mapping space: the partition the estimate chooses is no slower in simulation than
// the other, a searched partition simulates within 5% of its estimate, and every searcher is
// deterministic for a seed.
#include "archs/pim/pim_space.h"

#include <gtest/gtest.h>

#include "archs/pim/kind.h"
#include "tests/support/ir_builders.h"
#include "tests/support/searched_run.h"

namespace polyarch::archs::pim {
namespace {

using test_support::make_op;

PimParams pim_of(const std::string& file) {
  const SocConfig soc = load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file);
  for (const auto& unit : soc.units) {
    if (const auto* pim = dynamic_cast<const PimUnitConfig*>(unit.get())) return pim->params();
  }
  throw std::runtime_error(file + " has no pim unit");
}

ir::Op gemv(int64_t m, int64_t n, int64_t k) {
  ir::Op op =
      make_op("gemv_" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
              ir::GemmAttrs{.m = m, .n = n, .k = k});
  op.dtype = ir::DType::kFp16;
  return op;
}

const std::vector<std::string> kArchs = {"hbm_pim_like.yaml", "aim_gddr6_like.yaml",
                                         "upmem_like.yaml"};
// Decode projections (square, FFN up and down), a batch of 8, and a skinny output that leaves
// most PUs idle under a row partition.
const std::vector<ir::Op> kShapes = {gemv(1, 4096, 4096), gemv(1, 11008, 4096),
                                     gemv(8, 4096, 11008), gemv(1, 16, 65536)};

// The estimate chooses the partition; the command-level simulation (the PUs' commands on a
// controller's bank state, partial sums through the SoC's DRAM channel), an independent model of
// the same unit, must not find the other partition clearly faster.
TEST(PimGemmSpace, TheChosenPartitionSimulatesNoSlowerThanTheOther) {
  int columns_chosen = 0;
  for (const std::string& arch : kArchs) {
    const PimParams params = pim_of(arch);
    for (const ir::Op& op : kShapes) {
      const PimGemmMappingProblem problem(params, op);
      const mapping::SearchResult best = mapping::exhaustive_search(problem, mapping::Objective{});
      ASSERT_TRUE(best.found());
      const bool columns = problem.partition(best.best) == Partition::kColumns;
      columns_chosen += columns;
      const double chosen_s =
          test_support::run_searched(arch, "pim", op, std::make_shared<mapping::SearchPolicy>())
              .simulated.latency_s();
      const std::string other = columns ? "partition=rows" : "partition=columns";
      const double other_s =
          test_support::run_pinned(arch, "pim", op, other).simulated.latency_s();
      EXPECT_LE(chosen_s, 1.02 * other_s)
          << arch << " " << op.name << ": " << problem.space().describe(best.best) << " "
          << chosen_s << " s, " << other << " " << other_s << " s";
    }
  }
  // Both values of the dimension matter on the shipped presets.
  EXPECT_GT(columns_chosen, 0);
  EXPECT_LT(columns_chosen, static_cast<int>(kArchs.size() * kShapes.size()));
}

// The searched partition simulated (the PUs' commands on a controller's bank state, the transfers
// through the SoC's DRAM channel) against the estimate the search chose it by, on every preset
// and shape, the skinny GEMV whose partial sums dominate included.
TEST(PimGemmSpace, SearchedPartitionSimulatesWithinFivePercentOfItsEstimate) {
  for (const std::string& arch : kArchs) {
    for (const ir::Op& op : kShapes) {
      for (const char* searcher : {"exhaustive", "random"}) {
        auto policy = std::make_shared<mapping::SearchPolicy>();
        policy->searcher = searcher;
        policy->options = {.seed = 2, .max_evaluations = 2};
        const test_support::SearchedOpRun run = test_support::run_searched(arch, "pim", op, policy);
        ASSERT_TRUE(run.simulated.mapping.contains("search")) << arch << " " << op.name;
        EXPECT_NEAR(run.simulated.latency_s(), run.estimate_s, 0.05 * run.estimate_s)
            << arch << " " << op.name << " " << searcher << ": "
            << run.simulated.mapping["search"]["point"];
      }
    }
  }
}

TEST(PimGemmSpace, SearchIsDeterministicForASeed) {
  const PimGemmMappingProblem problem(pim_of("hbm_pim_like.yaml"), kShapes[2]);
  test_support::expect_deterministic_searches(problem, 4);
}

}  // namespace
}  // namespace polyarch::archs::pim
