#include "archs/systolic/reference/pe_grid.h"

#include <string>
#include <utility>

#include "base/error.h"

// One fold on the PE grid, simulated cycle by cycle. Every PE reads its neighbours' registers
// as they were at the end of the previous cycle and writes its own for the next, so a value
// moves exactly one PE per cycle. Each value carries the index of the reduction step it
// belongs to (`step`); a PE that would combine values of different steps throws, so a wrong
// skew cannot silently produce right-looking numbers. The fold ends by observation (all MACs
// done, all partial sums out), never by a formula.
namespace polyarch::archs::systolic::reference {
namespace {

// The contents of one pipeline register.
struct Lane {
  int64_t value = 0;
  int64_t step = -1;  // which element of the temporal stream (os: k; ws/is: t)
  bool valid = false;
};

// A fold that runs past this many cycles means the grid deadlocked (a bug in the model).
int64_t runaway_limit(int64_t rows, int64_t cols, int64_t temporal) {
  return 4 * (temporal + 2 * rows + cols) + 16;
}

void check_aligned(const Lane& a, const Lane& b, int64_t cycle, int64_t row, int64_t col) {
  if (a.valid != b.valid || (a.valid && a.step != b.step)) {
    throw_runtime({}, "PE grid skew error at cycle " + std::to_string(cycle) + ", PE (" +
                          std::to_string(row) + ", " + std::to_string(col) + ")");
  }
}

void check_running(int64_t cycle, int64_t limit) {
  if (cycle > limit) throw_runtime({}, "PE grid fold did not finish");
}

}  // namespace

FoldRunResult run_output_stationary_fold(int64_t rows, int64_t cols, int64_t temporal,
                                         std::span<const int64_t> streamed_left,
                                         std::span<const int64_t> streamed_top) {
  const int64_t pes = rows * cols;
  std::vector<Lane> rightward(pes), downward(pes), next_rightward(pes), next_downward(pes);
  std::vector<int64_t> accumulators(pes, 0);
  // The feeders skew the streams: row r (column c) starts r (c) cycles late, so A[r][k] and
  // B[k][c] meet in PE (r, c) at cycle k + r + c.
  auto feed = [temporal](std::span<const int64_t> stream, int64_t lane, int64_t cycle,
                         int64_t lane_stride, int64_t step_stride) {
    const int64_t step = cycle - lane;
    if (step < 0 || step >= temporal) return Lane{};
    return Lane{stream[lane * lane_stride + step * step_stride], step, true};
  };
  int64_t macs_left = pes * temporal;
  int64_t cycle = 0;
  const int64_t limit = runaway_limit(rows, cols, temporal);
  for (; macs_left > 0; ++cycle) {
    check_running(cycle, limit);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t pe = r * cols + c;
        const Lane a = c == 0 ? feed(streamed_left, r, cycle, temporal, 1) : rightward[pe - 1];
        const Lane b = r == 0 ? feed(streamed_top, c, cycle, 1, cols) : downward[pe - cols];
        check_aligned(a, b, cycle, r, c);
        if (a.valid) {
          accumulators[pe] += a.value * b.value;
          --macs_left;
        }
        next_rightward[pe] = a;
        next_downward[pe] = b;
      }
    }
    std::swap(rightward, next_rightward);
    std::swap(downward, next_downward);
  }
  return {std::move(accumulators), cycle};
}

FoldRunResult run_stationary_fold(int64_t rows, int64_t cols, int64_t temporal,
                                  std::span<const int64_t> stationary,
                                  std::span<const int64_t> streamed_left) {
  const int64_t pes = rows * cols;
  std::vector<int64_t> preload(pes, 0), held(pes, 0), next_preload(pes, 0);
  std::vector<Lane> rightward(pes), downward(pes), next_rightward(pes), next_downward(pes);
  std::vector<int64_t> result(temporal * cols, 0);
  int64_t results_left = temporal * cols;
  int64_t cycle = 0;
  const int64_t limit = runaway_limit(rows, cols, temporal);
  for (; results_left > 0; ++cycle) {
    check_running(cycle, limit);
    // Preload: the tile shifts down the columns, bottom row first, for `rows` cycles; at the
    // end of the last one every PE latches the value in its shift register.
    for (int64_t pe = 0; pe < pes; ++pe) {
      const int64_t r = pe / cols, c = pe % cols;
      const bool feeding = cycle < rows;
      next_preload[pe] = r > 0     ? preload[pe - cols]
                         : feeding ? stationary[(rows - 1 - cycle) * cols + c]
                                   : 0;
    }
    std::swap(preload, next_preload);
    if (cycle == rows - 1) held = preload;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t pe = r * cols + c;
        // Row r of the streamed operand starts once preload is done, r cycles late (skew).
        const int64_t step = cycle - rows - r;
        const Lane a = c > 0 ? rightward[pe - 1]
                             : (step >= 0 && step < temporal
                                    ? Lane{streamed_left[r * temporal + step], step, true}
                                    : Lane{});
        // The top row starts every partial sum at zero.
        const Lane partial = r > 0 ? downward[pe - cols] : Lane{0, a.step, a.valid};
        check_aligned(a, partial, cycle, r, c);
        if (a.valid && cycle < rows) throw_runtime({}, "PE grid streamed before preload ended");
        Lane sum = partial;
        if (a.valid) sum.value += a.value * held[pe];
        next_rightward[pe] = a;
        next_downward[pe] = sum;
        if (r == rows - 1 && sum.valid) {
          result[sum.step * cols + c] = sum.value;
          --results_left;
        }
      }
    }
    std::swap(rightward, next_rightward);
    std::swap(downward, next_downward);
  }
  return {std::move(result), cycle};
}

}  // namespace polyarch::archs::systolic::reference
