#include "archs/systolic/op_bound.h"

namespace polyarch::archs::systolic {

namespace {

// Traffic this far above the compulsory bytes means operands are fetched again: the buffers,
// not the channel, decide.
constexpr double kRefetchFactor = 1.5;

}  // namespace

double compulsory_dram_bytes(const ir::GemmView& view, ir::DType element_dtype) {
  return static_cast<double>(view.repeats) *
         static_cast<double>(ir::storage_bytes(
             view.ifmap_distinct_elements + view.k * view.n + view.m * view.n, element_dtype));
}

mapping::Bound systolic_bound(double compute_s, double dram_s, double dram_bytes,
                              double compulsory_bytes) {
  if (compute_s >= dram_s) return mapping::Bound::kCompute;
  return dram_bytes > kRefetchFactor * compulsory_bytes ? mapping::Bound::kBuffer
                                                        : mapping::Bound::kDram;
}

}  // namespace polyarch::archs::systolic
