#include "archs/systolic/reference/pe_grid.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "archs/systolic/cost_model.h"
#include "base/random_draw.h"

namespace polyarch::archs::systolic::reference {
namespace {

std::vector<int64_t> naive_gemm(int64_t m, int64_t n, int64_t k, std::span<const int32_t> a,
                                std::span<const int32_t> b) {
  std::vector<int64_t> c(m * n, 0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t p = 0; p < k; ++p) c[i * n + j] += int64_t{a[i * k + p]} * b[p * n + j];
    }
  }
  return c;
}

// Direct convolution loops over NCHW input and [k][c/groups][r][s] filters, no im2col.
std::vector<int64_t> naive_conv2d(const ir::Conv2dAttrs& conv, std::span<const int32_t> input,
                                  std::span<const int32_t> filters) {
  const int64_t out_h = conv.out_h(), out_w = conv.out_w();
  const int64_t group_channels = conv.c / conv.groups, group_filters = conv.k / conv.groups;
  std::vector<int64_t> out(conv.n * conv.k * out_h * out_w, 0);
  for (int64_t img = 0; img < conv.n; ++img) {
    for (int64_t f = 0; f < conv.k; ++f) {
      const int64_t group = f / group_filters;
      for (int64_t oy = 0; oy < out_h; ++oy) {
        for (int64_t ox = 0; ox < out_w; ++ox) {
          int64_t sum = 0;
          for (int64_t ch = 0; ch < group_channels; ++ch) {
            for (int64_t dy = 0; dy < conv.r; ++dy) {
              for (int64_t dx = 0; dx < conv.s; ++dx) {
                const int64_t y = oy * conv.stride_h + dy - conv.pad_h;
                const int64_t x = ox * conv.stride_w + dx - conv.pad_w;
                if (y < 0 || y >= conv.h || x < 0 || x >= conv.w) continue;
                const int64_t in_channel = group * group_channels + ch;
                sum += int64_t{input[((img * conv.c + in_channel) * conv.h + y) * conv.w + x]} *
                       filters[((f * group_channels + ch) * conv.r + dy) * conv.s + dx];
              }
            }
          }
          out[((img * conv.k + f) * out_h + oy) * out_w + ox] = sum;
        }
      }
    }
  }
  return out;
}

std::vector<int32_t> random_values(std::mt19937_64& rng, int64_t count) {
  auto value = [&](auto& engine) {
    return static_cast<int32_t>(polyarch::random_int(engine, -1000, 1000));
  };
  std::vector<int32_t> values(count);
  for (int32_t& v : values) v = value(rng);
  return values;
}

// The tile model's per-fold cycles in execution order, every repeat of the GEMM included.
std::vector<int64_t> model_fold_cycles(const SystolicPlan& plan) {
  std::vector<int64_t> cycles;
  for (int64_t repeat = 0; repeat < plan.gemm_repeats; ++repeat) {
    for (const FoldBlock& block : plan.blocks) {
      for (int64_t r = 0; r < block.repeat; ++r) {
        for (const FoldRun& run : block.runs) {
          cycles.insert(cycles.end(), run.count, run.tile.cycles);
        }
      }
    }
  }
  return cycles;
}

SystolicParams params_for(const GridShape& grid) {
  SystolicParams params;
  params.name = "reference";
  params.rows = grid.rows;
  params.cols = grid.cols;
  params.dataflow = grid.dataflow;
  params.scalesim_compat = false;  // the reference counts every cycle
  return params;
}

TEST(SystolicPeGrid, OutputStationaryFoldEndsWithLastMacInTheCorner) {
  // 2x3 tile of A (rows x t) and 3x2 of B (t x cols) on a 2x2 grid.
  const std::vector<int64_t> a = {1, 2, 3, 4, 5, 6};
  const std::vector<int64_t> b = {7, 8, 9, 10, 11, 12};
  const FoldRunResult fold = run_output_stationary_fold(2, 2, 3, a, b);
  EXPECT_EQ(fold.result, (std::vector<int64_t>{58, 64, 139, 154}));
  EXPECT_EQ(fold.cycles, 3 + 2 + 2 - 2);
}

TEST(SystolicPeGrid, StationaryFoldPreloadsStreamsAndDrainsTheBottomRow) {
  // Stationary 2x3 tile W, streamed 2x4 (rows x t): result[t][c] = sum_r left[r][t] * W[r][c].
  const std::vector<int64_t> w = {1, 2, 3, 4, 5, 6};
  const std::vector<int64_t> left = {1, 0, 2, -1, 3, 1, 0, 2};
  const FoldRunResult fold = run_stationary_fold(2, 3, 4, w, left);
  EXPECT_EQ(fold.result, (std::vector<int64_t>{13, 17, 21, 4, 5, 6, 2, 4, 6, 7, 8, 9}));
  EXPECT_EQ(fold.cycles, 2 * 2 + 3 + 4 - 2);
}

TEST(SystolicPeGrid, RejectsOperandsOfTheWrongSize) {
  const std::vector<int32_t> a(5), b(6);
  EXPECT_THROW(run_gemm({4, 4, Dataflow::kWeightStationary}, 2, 3, 3, a, b), Error);
}

struct Case {
  GridShape grid;
  bool is_conv = false;
  int64_t m = 0, n = 0, k = 0;
  ir::Conv2dAttrs conv;
  std::string describe() const {
    std::string text = std::string(dataflow_name(grid.dataflow)) + " " + std::to_string(grid.rows) +
                       "x" + std::to_string(grid.cols) + " ";
    if (!is_conv)
      return text + "gemm m=" + std::to_string(m) + " n=" + std::to_string(n) +
             " k=" + std::to_string(k);
    return text + "conv n=" + std::to_string(conv.n) + " c=" + std::to_string(conv.c) +
           " hw=" + std::to_string(conv.h) + "x" + std::to_string(conv.w) +
           " k=" + std::to_string(conv.k) + " rs=" + std::to_string(conv.r) + "x" +
           std::to_string(conv.s) + " stride=" + std::to_string(conv.stride_h) +
           " pad=" + std::to_string(conv.pad_h) + " groups=" + std::to_string(conv.groups);
  }
};

Case random_case(std::mt19937_64& rng, int index) {
  auto uniform = [&rng](int64_t lo, int64_t hi) { return polyarch::random_int(rng, lo, hi); };
  Case c;
  c.grid = {uniform(1, 16), uniform(1, 16), static_cast<Dataflow>(index % 3)};
  c.is_conv = index % 4 == 3;
  if (!c.is_conv) {
    c.m = uniform(1, 40);
    c.n = uniform(1, 40);
    c.k = uniform(1, 40);
    return c;
  }
  ir::Conv2dAttrs& conv = c.conv;
  conv.groups = uniform(1, 2);
  conv.n = uniform(1, 2);
  conv.c = conv.groups * uniform(1, 3);
  conv.k = conv.groups * uniform(1, 5);
  conv.r = uniform(1, 3);
  conv.s = uniform(1, 3);
  conv.stride_h = uniform(1, 2);
  conv.stride_w = uniform(1, 2);
  conv.pad_h = uniform(0, 1);
  conv.pad_w = uniform(0, 1);
  conv.h = uniform(conv.r, 9);
  conv.w = uniform(conv.s, 9);
  return c;
}

TEST(SystolicPeGrid, MatchesNaiveMathAndTileModelCyclesOnRandomShapes) {
  constexpr uint64_t kSeed = 0x5157011c;
  constexpr int kCases = 320;
  std::mt19937_64 rng(kSeed);
  for (int index = 0; index < kCases; ++index) {
    const Case c = random_case(rng, index);
    SCOPED_TRACE("seed " + std::to_string(kSeed) + " case " + std::to_string(index) + ": " +
                 c.describe());
    GridRun run;
    std::vector<int64_t> expected;
    ir::Op op;
    op.name = "case";
    if (c.is_conv) {
      const std::vector<int32_t> input =
          random_values(rng, c.conv.n * c.conv.c * c.conv.h * c.conv.w);
      const std::vector<int32_t> filters =
          random_values(rng, c.conv.k * (c.conv.c / c.conv.groups) * c.conv.r * c.conv.s);
      run = run_conv2d(c.grid, c.conv, input, filters);
      expected = naive_conv2d(c.conv, input, filters);
      op.attrs = c.conv;
    } else {
      const std::vector<int32_t> a = random_values(rng, c.m * c.k);
      const std::vector<int32_t> b = random_values(rng, c.k * c.n);
      run = run_gemm(c.grid, c.m, c.n, c.k, a, b);
      expected = naive_gemm(c.m, c.n, c.k, a, b);
      op.attrs = ir::GemmAttrs{.m = c.m, .n = c.n, .k = c.k};
    }
    ASSERT_EQ(run.output, expected);
    const SystolicPlan plan = plan_op(params_for(c.grid), op);
    ASSERT_EQ(run.fold_cycles, model_fold_cycles(plan));
    ASSERT_EQ(run.total_cycles, plan.compute_cycles);
    ASSERT_EQ(static_cast<int64_t>(run.fold_cycles.size()), plan.fold_count);
  }
}

}  // namespace
}  // namespace polyarch::archs::systolic::reference
