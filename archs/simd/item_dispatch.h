#pragma once
// How a kernel's work items spread over the cores when they are not all the same length (a
// causal mask gives the first query blocks few key blocks and the last many). A GPU's block
// scheduler hands the items out in launch order, each to an SM with a free CTA slot; an SM holds
// up to `resident` of them (its occupancy) and runs them side by side, each getting an equal
// share of its issue (processor sharing). An SM therefore works without a pause from the start
// until its last item ends, at one step per step time, and finishes after exactly the steps of
// the items it was given; which SM gets which item follows from when slots free up.
#include <cstdint>
#include <vector>

namespace polyarch::archs::simd {

// `steps` step times during which `active_cores` cores work.
struct ActiveSpan {
  int64_t steps = 0;
  int64_t active_cores = 0;
  friend bool operator==(const ActiveSpan&, const ActiveSpan&) = default;
};

// Items in launch order: `pattern` (each item's steps, all > 0) repeated `repeats` times, on
// `cores` cores of `resident` slots each. The spans run in time order, each with fewer active
// cores than the one before; their steps x active cores sum to the items' steps.
std::vector<ActiveSpan> dispatch_items(const std::vector<int64_t>& pattern, int64_t repeats,
                                       int64_t cores, int64_t resident);

}  // namespace polyarch::archs::simd
