#pragma once
// Cycle-level reference of a systolic array: an R x C grid of PEs in which every PE is a
// register stage and real values move one PE per cycle. It is slow (R*C work per cycle) and
// meant for small sizes; tests hold the analytical tile model (cost_model.h) to it: the same
// fold order, the same cycles per fold, and outputs equal to a naive GEMM or convolution.
//
// Per fold (folds run back to back, column folds outer, as in cost_model.h):
//   os: A rows enter from the left, B columns from the top, both skewed one cycle per
//       row/column; each PE accumulates one output. A fold ends with the last MAC.
//   ws: the R x C weight tile shifts down the columns for R cycles (bottom row first), then
//       ifmap rows enter skewed from the left and partial sums flow down; a fold ends when the
//       last partial sum leaves the bottom row.
//   is: as ws with the transposed ifmap tile stationary and filter columns streamed.
// Partly used folds run on zero-padded tiles, as SCALE-Sim's null requests occupy the array.
#include <cstdint>
#include <span>
#include <vector>

#include "archs/systolic/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::systolic::reference {

struct GridShape {
  int64_t rows = 0;
  int64_t cols = 0;
  Dataflow dataflow = Dataflow::kWeightStationary;
};

struct GridRun {
  std::vector<int64_t> output;       // row-major result
  std::vector<int64_t> fold_cycles;  // cycles of each fold, in execution order
  int64_t total_cycles = 0;          // sum of fold_cycles
};

// C[m x n] = A[m x k] * B[k x n], all row-major, folded onto the grid and run cycle by cycle.
GridRun run_gemm(const GridShape& grid, int64_t m, int64_t n, int64_t k, std::span<const int32_t> a,
                 std::span<const int32_t> b);

// A convolution as SCALE-Sim runs it: per group, its im2col GEMM (rows = output pixels of
// every image, columns = (channel, r, s) window positions). `input` is NCHW, `filters`
// [k][c/groups][r][s]; the result is NCHW [n][k][out_h][out_w]. Groups run one after another.
GridRun run_conv2d(const GridShape& grid, const ir::Conv2dAttrs& conv,
                   std::span<const int32_t> input, std::span<const int32_t> filters);

// One fold, exposed for tests: a zero-padded tile on the full grid. For os, `streamed_left` is
// [rows][t] and `streamed_top` [t][cols], the result [rows][cols]. For ws/is, `stationary` is
// [rows][cols], `streamed_left` [rows][t], the result [t][cols]. Returns the result and the
// cycles from the first cycle of the fold to the one in which its last result is produced.
struct FoldRunResult {
  std::vector<int64_t> result;
  int64_t cycles = 0;
};
FoldRunResult run_output_stationary_fold(int64_t rows, int64_t cols, int64_t temporal,
                                         std::span<const int64_t> streamed_left,
                                         std::span<const int64_t> streamed_top);
FoldRunResult run_stationary_fold(int64_t rows, int64_t cols, int64_t temporal,
                                  std::span<const int64_t> stationary,
                                  std::span<const int64_t> streamed_left);

}  // namespace polyarch::archs::systolic::reference
