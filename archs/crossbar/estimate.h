#pragma once
// The crossbar's analytical estimate: a closed form of the op's time, what the mapping search
// ranks replications by and `compile --explain` prints. It is written independently of the
// simulation (op_schedule.h, array_pipeline.h, module.h) and tests hold the two to each other.
//   conv   = ceil(J / A) x columns_per_adc / sample_rate: one slice's conversions on the busiest
//            tile, J its column-group jobs (a full tile at the layout's first column block;
//            partial groups counted whole), A the tile's ADCs (adc.per_tile)
//   period = max(read_ns, conv)         the slice spacing once reads and conversions overlap
//   fill   = read_ns + conv + peripheral_ns - period      the first read, the last conversion
//            and the shift-and-add around the stream
//   pace(c, d) = max(c, (c + d + latency) / 2): identical tiles of compute c and transfers d
//            through two buffer slots (a load is issued one tile ahead of its use)
//   C_p    = c + (W_p - 1) x pace(c, a wave's bytes / bandwidth) + fill, c = input_slices x
//            period (+ w + (rows - 1) x pace(w, a row's weights / bandwidth), w =
//            write_ns_per_row, when reprogrammed): the first tile waits for its load, the rest
//            keep the pace
//   D_p    = the pass's input, output and reprogrammed weight bytes / bandwidth
//   P_p    = max(rows' C, weights' D) + max(waves' C, waves' D): the waves wait for the last row
//   T      = 2 x latency + max(first tile's read + sum_p C_p + last wave's write,
//                              sum_p D_p + what of the last wave's slices its drain leaves,
//                              sum_p P_p)
// with W_p waves per pass (ceil(M / replicas); M when reprogrammed). Double buffering lets the
// DRAM stream and the arrays overlap, so the op costs the slower side plus what cannot
// overlap, not the sum of the two.
#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/op_bound.h"
#include "archs/crossbar/params.h"
#include "sim/memory/dram_view.h"

namespace polyarch::archs::crossbar {

struct CrossbarEstimate {
  double seconds = 0;
  CrossbarBusy busy;  // predicted, for the bound
  mapping::Bound bound = mapping::Bound::kCompute;
};

CrossbarEstimate estimate_op(const CrossbarParams& params, const CrossbarPlan& plan,
                             const sim::DramView& memory);

}  // namespace polyarch::archs::crossbar
