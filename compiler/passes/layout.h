#pragma once
// Layout: the memory order of 4-D activations, chosen per target. Models import NCHW; a target
// whose convolution engine prefers NHWC (a systolic array or SIMD cores forming im2col rows
// from contiguous channels) gets its convolutions and pools in NHWC, the elementwise ops
// between them following their operands, and a transpose (a Copy) wherever a producer and a
// consumer disagree: into NHWC before the first convolution, back to NCHW before a reshape,
// a GEMM or a graph output that needs the logical NCHW order.
//
// The layout is recorded on the ops (Op::layout); tensors keep their logical NCHW shape, so
// the reference interpreter, which computes on logical tensors, runs each inserted transpose
// as an identity and computes the same values.
#include <optional>
#include <string_view>

#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Counters: "nhwc ops" placed in NHWC, "transposes" inserted, "reused" conversions that a
// second consumer of the same tensor shared.
class LayoutPass : public Pass {
 public:
  // nullopt or NCHW: the graph stays as imported.
  explicit LayoutPass(std::optional<ir::Layout> conv_layout = std::nullopt)
      : conv_layout_(conv_layout) {}
  std::string_view name() const override { return "layout"; }
  PassStatistics run(ir::Graph& graph) override;

 private:
  std::optional<ir::Layout> conv_layout_;
};

}  // namespace polyarch::passes
