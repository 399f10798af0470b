#pragma once
// Builders of the inner-loop dataflow graphs the mapper places: an unrolled weight-stationary
// GEMM/conv tile, a (fused) elementwise chain, and the row kernels (softmax, norms, reductions,
// pooling, copies). One iteration handles `lanes` elements (a vector of rows of A for a GEMM
// tile, a vector chunk of a row for a row kernel).
#include <cstdint>
#include <string>
#include <vector>

#include "archs/dataflow/dfg.h"
#include "archs/dataflow/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::dataflow {

// The ALU ops one output element of an elementwise function goes through, as a chain, with
// the PE's fallbacks (tanh from exp and div, rsqrt from sqrt and div). Empty for a copy.
std::vector<std::string> alu_sequence(const std::string& fn, const PeParams& pe);

// A GEMM tile: `k_unroll` reduction steps for `n_unroll` output columns, each MAC holding its
// weight in a register (weight stationary), streaming `lanes` rows of A per iteration. With
// `psum_in` the chain starts from a partial sum loaded from the scratchpad (K split in tiles).
struct GemmTile {
  int64_t k_unroll = 1;
  int64_t n_unroll = 1;
  bool psum_in = false;
  ir::DType dtype = ir::DType::kFp32;
};
Dfg gemm_tile_dfg(const DataflowParams& params, const GemmTile& tile);

// Dot products with the lanes along K: an iteration loads a lanes-wide chunk of K of one row
// of A and of each of `n_unroll` columns of B, and `n_unroll` accumulators add the products lane
// by lane (a MAC each, or a multiply then an add), over a self edge of distance `interleave`:
// that many partial sums per lane, round-robin over the K chunks, so the accumulator's latency
// does not bound the II (as the row kernels' accumulators). No store in the loop: each
// accumulator's partials leave once, at its last iteration, for the reduction (dot_plan.cpp).
struct DotTile {
  int64_t n_unroll = 1;
  int64_t interleave = 1;
  ir::DType dtype = ir::DType::kFp32;
};
Dfg dot_dfg(const DataflowParams& params, const DotTile& tile);

// One step of an elementwise chain: the function and its operand count; a fused chain feeds
// each step's result to the next step's first operand on the fabric.
struct ChainStep {
  std::string fn;
  int64_t inputs = 1;
};
Dfg elementwise_chain_dfg(const DataflowParams& params, const std::vector<ChainStep>& steps);

// A row kernel's graph: softmax (max, exp-sum, normalise as three concurrent pipelines on
// successive rows), layernorm / rmsnorm (statistics, normalise), reduce, pool, and a plain
// load-store stream (embedding, copy). Accumulators carry over `interleave` iterations: that
// many rows are accumulated round-robin so an adder's latency need not bound the II.
Dfg row_kernel_dfg(const DataflowParams& params, const ir::Op& op, int64_t interleave);

// ALU ops (and "mac") the graph uses that the PEs lack; empty when the fabric can run it.
std::vector<std::string> missing_ops(const Dfg& dfg, const DataflowParams& params);

}  // namespace polyarch::archs::dataflow
