#pragma once
// The row-stationary (RS) dataflow of Eyeriss (Chen, Emer, Sze, "Eyeriss: A Spatial Architecture
// for Energy-Efficient Dataflow for Convolutional Neural Networks", ISCA 2016; Chen et al., IEEE
// JSSC 52(1) 2017) as a plan of tiles the systolic unit's tile runner executes. Equations:
// archs/systolic/README.md, "Row stationary".
//
// A PE runs a 1-D convolution of one filter row (S weights) over one ifmap row, producing one
// row of F partial sums: S x F MACs, one a cycle. A "PE set" of R x E PEs (filter rows x ofmap
// rows) computes one 2-D convolution (one filter, one channel, one image): filter rows are
// shared along the set's rows, ifmap rows along its diagonals, and partial sums add up its
// columns. The set is strip-mined to the array's width when E > cols, split into filter-row
// segments when R > rows, and as many sets as fit are placed on the array at once; each runs
// another (filter, channel, image, strip) combination.
#include <cstdint>

#include "archs/systolic/cost_model.h"
#include "archs/systolic/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::systolic {

// One convolution group as the RS mapping sees it (per group; `groups` repeats it).
struct RowConvShape {
  int64_t images = 1;       // N
  int64_t channels = 1;     // C per group
  int64_t filters = 1;      // M per group
  int64_t in_rows = 1;      // H (unpadded)
  int64_t in_cols = 1;      // W (unpadded)
  int64_t filter_rows = 1;  // R
  int64_t filter_cols = 1;  // S
  int64_t span_rows = 1;    // input rows one window spans (dilation included)
  int64_t span_cols = 1;    // input columns one window spans
  int64_t stride_rows = 1;  // U (vertical)
  int64_t stride_cols = 1;  // U (horizontal)
  int64_t out_rows = 1;     // E
  int64_t out_cols = 1;     // F
  int64_t groups = 1;
};

// A convolution's shape; a GEMM [M x K] * [K x N] is the 1x1 convolution of a 1-row image of M
// pixels and K channels with N filters (E = 1, F = M, R = S = 1).
RowConvShape row_conv_shape(const ir::Op& op);
RowConvShape row_conv_shape(const ir::GemmView& view);

// How PE sets of `filter_rows` x `ofmap_rows` fold onto an array of `array_rows` x `array_cols`.
struct PeSetMapping {
  int64_t row_segments = 1;  // ceil(R / array_rows): filter-row segments, run one after another
  int64_t segment_rows = 1;  // ceil(R / row_segments): PE rows one segment occupies
  int64_t strips = 1;        // ceil(E / array_cols): the set's ofmap rows cut into strips
  int64_t strip_width = 1;   // ceil(E / strips): PE columns one strip occupies
  int64_t sets_down = 1;     // floor(array_rows / segment_rows): strips placed down the array
  int64_t sets_across = 1;   // floor(array_cols / strip_width): strips placed across it
  int64_t placements() const { return sets_down * sets_across; }
};
PeSetMapping map_pe_sets(int64_t array_rows, int64_t array_cols, int64_t filter_rows,
                         int64_t ofmap_rows);

// Cycles of `work_units` (filter, channel, image, strip, segment) combinations, each a set of
// 1-D row convolutions of `filter_cols` x `ofmap_cols` MACs per PE, placed `placements` at a time.
int64_t row_stationary_cycles(const PeSetMapping& mapping, int64_t work_units, int64_t filter_cols,
                              int64_t ofmap_cols);

// Filters (p) and channels (q) one PE interleaves: q * S ifmap words and p * q * S filter words
// fit their scratchpads, p partial sums fit the psum scratchpad; at least 1 each.
struct ScratchpadReuse {
  int64_t filters_per_pe = 1;   // p
  int64_t channels_per_pe = 1;  // q
};
ScratchpadReuse scratchpad_reuse(const RowStationaryScratchpads& pads, int64_t filter_cols,
                                 int64_t channels, int64_t filters);

// Plans a convolution (or a GEMM as its 1x1 case) in the row-stationary dataflow: the tiling
// and loop order whose compute cycles and DRAM transfer time at `dram_bytes_per_cycle` (per
// unit cycle; 0 = unlimited) give the shortest max of the two, fewer DRAM bytes on a tie.
SystolicPlan plan_row_stationary(const SystolicParams& params, const RowConvShape& shape,
                                 ir::DType element_dtype, bool with_mapping_json,
                                 double dram_bytes_per_cycle);

}  // namespace polyarch::archs::systolic
