// Folding a GEMM (and a convolution, through im2col) onto the reference PE grid: cut the
// operands into zero-padded array-sized tiles, run each fold on pe_grid.cpp's cycle-level grid,
// and scatter (os) or accumulate (ws, is: the reduction spans the row folds) the results.
#include <string>

#include "archs/systolic/reference/pe_grid.h"
#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::archs::systolic::reference {
namespace {

void check_size(std::span<const int32_t> values, int64_t expected, const char* what) {
  if (static_cast<int64_t>(values.size()) != expected) {
    throw_bad_input({}, std::string("reference GEMM: ") + what + " has " +
                            std::to_string(values.size()) + " values, expected " +
                            std::to_string(expected));
  }
}

// Element (row, col) of a row-major matrix, or 0 outside it (padding of a partial fold).
int64_t at_or_zero(std::span<const int32_t> matrix, int64_t row, int64_t col, int64_t rows,
                   int64_t cols) {
  return row < rows && col < cols ? matrix[row * cols + col] : 0;
}

// Runs fold (row_fold, col_fold) and merges its result into `output` [m x n].
int64_t run_fold(const GridShape& grid, int64_t m, int64_t n, int64_t k, std::span<const int32_t> a,
                 std::span<const int32_t> b, int64_t row_fold, int64_t col_fold,
                 std::vector<int64_t>& output) {
  const int64_t rows = grid.rows, cols = grid.cols;
  const int64_t row0 = row_fold * rows, col0 = col_fold * cols;
  if (grid.dataflow == Dataflow::kOutputStationary) {
    // Rows are output rows (M), columns output columns (N), time the reduction (K).
    std::vector<int64_t> left(rows * k), top(k * cols);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t step = 0; step < k; ++step)
        left[r * k + step] = at_or_zero(a, row0 + r, step, m, k);
    }
    for (int64_t step = 0; step < k; ++step) {
      for (int64_t c = 0; c < cols; ++c) top[step * cols + c] = at_or_zero(b, step, col0 + c, k, n);
    }
    const FoldRunResult fold = run_output_stationary_fold(rows, cols, k, left, top);
    for (int64_t r = 0; r < rows && row0 + r < m; ++r) {
      for (int64_t c = 0; c < cols && col0 + c < n; ++c) {
        output[(row0 + r) * n + col0 + c] = fold.result[r * cols + c];
      }
    }
    return fold.cycles;
  }
  // ws: B tile stationary (rows = K, cols = N), A streamed over time M.
  // is: A^T tile stationary (rows = K, cols = M), B streamed over time N.
  const bool ws = grid.dataflow == Dataflow::kWeightStationary;
  const int64_t temporal = ws ? m : n;
  std::vector<int64_t> stationary(rows * cols), left(rows * temporal);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      stationary[r * cols + c] =
          ws ? at_or_zero(b, row0 + r, col0 + c, k, n) : at_or_zero(a, col0 + c, row0 + r, m, k);
    }
    for (int64_t step = 0; step < temporal; ++step) {
      left[r * temporal + step] =
          ws ? at_or_zero(a, step, row0 + r, m, k) : at_or_zero(b, row0 + r, step, k, n);
    }
  }
  const FoldRunResult fold = run_stationary_fold(rows, cols, temporal, stationary, left);
  for (int64_t step = 0; step < temporal; ++step) {
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t out_row = ws ? step : col0 + c, out_col = ws ? col0 + c : step;
      if (out_row < m && out_col < n) output[out_row * n + out_col] += fold.result[step * cols + c];
    }
  }
  return fold.cycles;
}

}  // namespace

GridRun run_gemm(const GridShape& grid, int64_t m, int64_t n, int64_t k, std::span<const int32_t> a,
                 std::span<const int32_t> b) {
  if (grid.rows <= 0 || grid.cols <= 0 || m <= 0 || n <= 0 || k <= 0) {
    throw_bad_input({}, "reference GEMM needs positive array and matrix sizes");
  }
  check_size(a, m * k, "A");
  check_size(b, k * n, "B");
  // Spatial rows/columns of the fold loops, as in cost_model.cpp's operand_dims.
  const bool os = grid.dataflow == Dataflow::kOutputStationary;
  const int64_t spatial_rows = os ? m : k;
  const int64_t spatial_cols = grid.dataflow == Dataflow::kInputStationary ? m : n;
  GridRun run;
  run.output.assign(m * n, 0);
  for (int64_t col_fold = 0; col_fold < ceil_div(spatial_cols, grid.cols); ++col_fold) {
    for (int64_t row_fold = 0; row_fold < ceil_div(spatial_rows, grid.rows); ++row_fold) {
      const int64_t cycles = run_fold(grid, m, n, k, a, b, row_fold, col_fold, run.output);
      run.fold_cycles.push_back(cycles);
      run.total_cycles += cycles;
    }
  }
  return run;
}

GridRun run_conv2d(const GridShape& grid, const ir::Conv2dAttrs& conv,
                   std::span<const int32_t> input, std::span<const int32_t> filters) {
  const int64_t out_h = conv.out_h(), out_w = conv.out_w();
  const int64_t group_channels = conv.c / conv.groups, group_filters = conv.k / conv.groups;
  check_size(input, conv.n * conv.c * conv.h * conv.w, "conv input");
  check_size(filters, conv.k * group_channels * conv.r * conv.s, "conv filters");
  const int64_t m = conv.n * out_h * out_w, k = group_channels * conv.r * conv.s;
  GridRun run;
  run.output.assign(conv.n * conv.k * out_h * out_w, 0);
  for (int64_t group = 0; group < conv.groups; ++group) {
    std::vector<int32_t> im2col(m * k, 0), filter_matrix(k * group_filters);
    for (int64_t row = 0; row < m; ++row) {
      const int64_t image = row / (out_h * out_w), oy = row / out_w % out_h, ox = row % out_w;
      for (int64_t col = 0; col < k; ++col) {
        const int64_t channel = col / (conv.r * conv.s), dy = col / conv.s % conv.r,
                      dx = col % conv.s;
        const int64_t y = conv.input_row(oy, dy);
        const int64_t x = conv.input_col(ox, dx);
        if (y < 0 || y >= conv.h || x < 0 || x >= conv.w) continue;  // zero padding
        im2col[row * k + col] =
            input[((image * conv.c + group * group_channels + channel) * conv.h + y) * conv.w + x];
      }
    }
    for (int64_t col = 0; col < k; ++col) {
      for (int64_t f = 0; f < group_filters; ++f) {
        filter_matrix[col * group_filters + f] = filters[(group * group_filters + f) * k + col];
      }
    }
    const GridRun part = run_gemm(grid, m, group_filters, k, im2col, filter_matrix);
    for (int64_t row = 0; row < m; ++row) {
      const int64_t image = row / (out_h * out_w), pixel = row % (out_h * out_w);
      for (int64_t f = 0; f < group_filters; ++f) {
        const int64_t channel = group * group_filters + f;
        run.output[(image * conv.k + channel) * out_h * out_w + pixel] =
            part.output[row * group_filters + f];
      }
    }
    run.fold_cycles.insert(run.fold_cycles.end(), part.fold_cycles.begin(), part.fold_cycles.end());
    run.total_cycles += part.total_cycles;
  }
  return run;
}

}  // namespace polyarch::archs::systolic::reference
