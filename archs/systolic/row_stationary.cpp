#include "archs/systolic/row_stationary.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/checked_math.h"
#include "base/error.h"

// Equations and sources: archs/systolic/README.md, "Row stationary".
namespace polyarch::archs::systolic {

RowConvShape row_conv_shape(const ir::Op& op) {
  if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    return {.images = conv->n,
            .channels = conv->c / conv->groups,
            .filters = conv->k / conv->groups,
            .in_rows = conv->h,
            .in_cols = conv->w,
            .filter_rows = conv->r,
            .filter_cols = conv->s,
            .span_rows = conv->span_h(),
            .span_cols = conv->span_w(),
            .stride_rows = conv->stride_h,
            .stride_cols = conv->stride_w,
            .out_rows = conv->out_h(),
            .out_cols = conv->out_w(),
            .groups = conv->groups};
  }
  return row_conv_shape(ir::gemm_view(op));
}

RowConvShape row_conv_shape(const ir::GemmView& view) {
  return {.images = 1,
          .channels = view.k,
          .filters = view.n,
          .in_rows = 1,
          .in_cols = view.m,
          .out_rows = 1,
          .out_cols = view.m,
          .groups = view.repeats};
}

PeSetMapping map_pe_sets(int64_t array_rows, int64_t array_cols, int64_t filter_rows,
                         int64_t ofmap_rows) {
  PeSetMapping mapping;
  mapping.row_segments = ceil_div(filter_rows, array_rows);
  mapping.segment_rows = ceil_div(filter_rows, mapping.row_segments);
  mapping.strips = ceil_div(ofmap_rows, array_cols);
  mapping.strip_width = ceil_div(ofmap_rows, mapping.strips);
  mapping.sets_down = array_rows / mapping.segment_rows;
  mapping.sets_across = array_cols / mapping.strip_width;
  return mapping;
}

int64_t row_stationary_cycles(const PeSetMapping& mapping, int64_t work_units, int64_t filter_cols,
                              int64_t ofmap_cols) {
  // Every placed strip's PEs each run one S-tap row convolution over F outputs per unit.
  return checked_mul(ceil_div(work_units, mapping.placements()), filter_cols * ofmap_cols,
                     "row-stationary cycles");
}

ScratchpadReuse scratchpad_reuse(const RowStationaryScratchpads& pads, int64_t filter_cols,
                                 int64_t channels, int64_t filters) {
  ScratchpadReuse reuse;
  reuse.channels_per_pe = std::clamp<int64_t>(pads.ifmap_words / filter_cols, 1, channels);
  reuse.filters_per_pe = std::clamp<int64_t>(
      std::min(pads.psum_words, pads.filter_words / (reuse.channels_per_pe * filter_cols)), 1,
      filters);
  return reuse;
}

namespace {

// One tile: `filters` filters of one image over `rows` x `cols` outputs.
struct TileExtent {
  int64_t filters = 0, rows = 0, cols = 0;
};

// Cuts `extent` into `count` pieces of at most `piece`: `count - 1` of `full`, the last `last`.
// Balanced pieces are near-equal; unbalanced ones are `piece` long but the last.
struct Cut {
  int64_t full = 0, count = 1, last = 0;
};
Cut cut(int64_t extent, int64_t piece, bool balanced = true) {
  Cut result;
  result.count = ceil_div(extent, std::max<int64_t>(1, piece));
  result.full = balanced ? ceil_div(extent, result.count) : std::min(extent, piece);
  result.last = extent - result.full * (result.count - 1);
  return result;
}
// The (extent, count) pairs of a cut, equal ones merged.
std::vector<std::pair<int64_t, int64_t>> pieces(const Cut& c) {
  if (c.count == 1) return {{c.last, 1}};
  if (c.full == c.last) return {{c.full, c.count}};
  return {{c.full, c.count - 1}, {c.last, 1}};
}

enum class LoopOrder { kFiltersOuter, kIfmapOuter };

struct RsContext {
  const SystolicParams* params = nullptr;
  RowConvShape shape;
  ir::DType element_dtype = ir::DType::kInt8;
  int64_t acc_bytes = 0;
  Cut filter_cut, row_cut, col_cut;
  ScratchpadReuse reuse;
  LoopOrder order = LoopOrder::kFiltersOuter;
  bool ifmap_fits_whole = false;   // every image's ifmap fits the ifmap buffer
  bool filters_fit_whole = false;  // every filter fits the filter buffer
  bool group_filters_fit = false;  // one filter group fits the filter buffer
  int64_t ifmap_capacity = 0;

  int64_t bytes_of(int64_t elements) const { return ir::storage_bytes(elements, element_dtype); }
  int64_t ifmap_slice(const TileExtent& tile) const {
    const RowConvShape& s = shape;
    const int64_t rows = std::min(s.in_rows, (tile.rows - 1) * s.stride_rows + s.span_rows);
    const int64_t cols = std::min(s.in_cols, (tile.cols - 1) * s.stride_cols + s.span_cols);
    return checked_mul(rows * cols, s.channels, "ifmap slice");
  }
  bool slice_fits(const TileExtent& tile) const {
    return bytes_of(ifmap_slice(tile)) <= ifmap_capacity;
  }
  int64_t filter_elements(int64_t filters) const {
    return checked_mul(filters * shape.channels, shape.filter_rows * shape.filter_cols,
                       "filter elements");
  }
};

// The tile of `rows` ofmap rows: as many filters as the partial-sum (ofmap) buffer holds over
// those rows; if one filter's rows do not fit, one row of as many columns as fit.
void set_tiles(RsContext& ctx, int64_t psum_capacity, int64_t rows) {
  const RowConvShape& s = ctx.shape;
  const int64_t a = ctx.acc_bytes;
  const int64_t band = checked_mul(rows * s.out_cols, a, "psum bytes");
  int64_t filters = 1, cols = s.out_cols;
  if (band <= psum_capacity) {
    filters = std::min(s.filters, psum_capacity / band);
  } else if (rows == 1) {
    cols = std::max<int64_t>(1, psum_capacity / a);
  }
  ctx.filter_cut = cut(s.filters, filters);
  ctx.row_cut = cut(s.out_rows, rows, false);  // whole strips, the last one short
  ctx.col_cut = cut(s.out_cols, cols);
}

// Row-tile heights worth trying, tallest first: whole strips of the PE set (the ISCA paper's
// strip-mining of E into the fewest strips the array's width allows), 1 to `strips` of them, as
// long as one filter's partial sums over the tile fit the buffer. If not even one strip fits,
// the tallest height that does (at least 1 row, then cut into columns).
std::vector<int64_t> row_tile_heights(const PeSetMapping& mapping, const RowConvShape& s,
                                      int64_t psum_capacity, int64_t acc_bytes) {
  const int64_t fit = psum_capacity / std::max<int64_t>(1, s.out_cols * acc_bytes);
  std::vector<int64_t> heights;
  for (int64_t strips = mapping.strips; strips >= 1; --strips) {
    const int64_t height = std::min(s.out_rows, strips * mapping.strip_width);
    if (height <= fit) heights.push_back(height);
  }
  if (heights.empty()) heights.push_back(std::clamp<int64_t>(fit, 1, s.out_rows));
  return heights;
}

FoldShape rs_tile(const RsContext& ctx, const TileExtent& tile, bool read_filters,
                  bool read_ifmap) {
  const SystolicParams& params = *ctx.params;
  const RowConvShape& s = ctx.shape;
  const PeSetMapping mapping = map_pe_sets(params.rows, params.cols, s.filter_rows, tile.rows);
  const int64_t units =
      checked_mul(tile.filters * s.channels, mapping.strips * mapping.row_segments, "RS units");
  FoldShape fold;
  fold.cycles = row_stationary_cycles(mapping, units, s.filter_cols, tile.cols);
  const int64_t placed = std::min(mapping.placements(), units);
  const int64_t down = std::min(mapping.sets_down, ceil_div(placed, mapping.sets_across));
  fold.rows_used = down * mapping.segment_rows;
  fold.cols_used = std::min(mapping.sets_across, placed) * mapping.strip_width;
  const int64_t outputs = tile.filters * tile.rows * tile.cols;
  fold.macs = checked_mul(checked_mul(outputs, s.channels, "RS MACs"),
                          s.filter_rows * s.filter_cols, "RS MACs");
  // Global-buffer traffic: an ifmap word fetched into a PE serves its p filters; each weight
  // enters a scratchpad once per tile; partial sums leave a PE after q channels (and after each
  // filter-row segment) and come back for the next ones.
  const int64_t slice = ctx.ifmap_slice(tile);
  const int64_t round_trips =
      ceil_div(s.channels, ctx.reuse.channels_per_pe) * mapping.row_segments;
  fold.ifmap_sram_reads =
      checked_mul(slice, ceil_div(tile.filters, ctx.reuse.filters_per_pe), "ifmap reads");
  fold.filter_sram_reads = ctx.filter_elements(tile.filters);
  fold.ofmap_sram_writes = checked_mul(outputs, round_trips, "psum writes");
  fold.ofmap_sram_reads = checked_mul(outputs, round_trips - 1, "psum reads");
  const int64_t read_elements =
      (read_ifmap ? slice : 0) + (read_filters ? ctx.filter_elements(tile.filters) : 0);
  fold.dram_read_bytes = ctx.bytes_of(read_elements);
  fold.dram_write_bytes = ctx.bytes_of(outputs);  // finished outputs, in the output type
  return fold;
}

// One filter group's tiles (filters outer): every image's row x column tiles. The group's
// filters load with its first tile when they fit, else with every tile.
std::vector<FoldRun> filter_group_runs(const RsContext& ctx, int64_t filters, bool read_ifmap) {
  std::vector<FoldRun> runs;
  const bool reload = !ctx.group_filters_fit;
  bool first_tile = true;
  for (int64_t image = 0; image < ctx.shape.images; ++image) {
    for (const auto& [rows, row_count] : pieces(ctx.row_cut)) {
      for (int64_t r = 0; r < row_count; ++r) {
        for (const auto& [cols, col_count] : pieces(ctx.col_cut)) {
          const TileExtent tile{filters, rows, cols};
          sim::append_run(runs, rs_tile(ctx, tile, first_tile || reload, read_ifmap), 1);
          sim::append_run(runs, rs_tile(ctx, tile, reload, read_ifmap), col_count - 1);
          first_tile = false;
        }
      }
    }
  }
  return runs;
}

// filters outer: one block per filter group. The ifmap is read by every tile unless the whole of
// it stays in the ifmap buffer after the first group.
std::vector<FoldBlock> filters_outer_blocks(const RsContext& ctx) {
  std::vector<FoldBlock> blocks;
  bool first_group = true;
  for (const auto& [filters, group_count] : pieces(ctx.filter_cut)) {
    // Groups after the first are alike: build one and repeat it.
    int64_t left = group_count;
    if (first_group) {
      sim::append_block(blocks, filter_group_runs(ctx, filters, true));
      first_group = false;
      --left;
    }
    if (left > 0) {
      sim::append_block(blocks, filter_group_runs(ctx, filters, !ctx.ifmap_fits_whole), left);
    }
  }
  return blocks;
}

// ifmap outer: one block per (image, row tile, column tile); inside it every filter group. The
// ifmap slice loads with the first group when it fits its buffer, else with every group; the
// filters load with every tile unless all of them stay in the filter buffer after the first.
std::vector<FoldBlock> ifmap_outer_blocks(const RsContext& ctx) {
  std::vector<FoldBlock> blocks;
  bool first_block = true;
  for (int64_t image = 0; image < ctx.shape.images; ++image) {
    for (const auto& [rows, row_count] : pieces(ctx.row_cut)) {
      for (int64_t r = 0; r < row_count; ++r) {
        for (const auto& [cols, col_count] : pieces(ctx.col_cut)) {
          for (int64_t c = 0; c < col_count; ++c) {
            std::vector<FoldRun> runs;
            const TileExtent probe{1, rows, cols};
            const bool slice_stays = ctx.slice_fits(probe);
            const bool read_filters = first_block || !ctx.filters_fit_whole;
            bool first_group = true;
            for (const auto& [filters, group_count] : pieces(ctx.filter_cut)) {
              const TileExtent tile{filters, rows, cols};
              sim::append_run(runs, rs_tile(ctx, tile, read_filters, first_group || !slice_stays),
                              1);
              sim::append_run(runs, rs_tile(ctx, tile, read_filters, !slice_stays),
                              group_count - 1);
              first_group = false;
            }
            sim::append_block(blocks, std::move(runs));
            first_block = false;
          }
        }
      }
    }
  }
  return blocks;
}

nlohmann::ordered_json mapping_json(const RsContext& ctx, const SystolicPlan& plan) {
  const RowConvShape& s = ctx.shape;
  const SystolicParams& params = *ctx.params;
  const PeSetMapping mapping = map_pe_sets(params.rows, params.cols, s.filter_rows, s.out_rows);
  const FoldShape& first = plan.blocks.front().runs.front().tile;
  const bool filters_outer = ctx.order == LoopOrder::kFiltersOuter;
  std::string ifmap = "fetch_every_tile", filter = "fetch_every_tile";
  if (filters_outer) {
    if (ctx.ifmap_fits_whole) ifmap = "fetch_once_resident";
    if (ctx.group_filters_fit) filter = "fetch_once_per_filter_group";
  } else {
    if (ctx.slice_fits({1, ctx.row_cut.full, ctx.col_cut.full})) {
      ifmap = "fetch_once_per_ifmap_tile";
    }
    if (ctx.filters_fit_whole) filter = "fetch_once_resident";
  }
  return {{"dataflow", dataflow_name(params.dataflow)},
          {"pe_set", {{"filter_rows", s.filter_rows}, {"ofmap_rows", s.out_rows}}},
          {"filter_row_segments", mapping.row_segments},
          {"strips", mapping.strips},
          {"strip_width", mapping.strip_width},
          {"sets_down", mapping.sets_down},
          {"sets_across", mapping.sets_across},
          {"active_pes", first.rows_used * first.cols_used},
          {"filters_per_pe", ctx.reuse.filters_per_pe},
          {"channels_per_pe", ctx.reuse.channels_per_pe},
          {"tile",
           {{"filters", ctx.filter_cut.full},
            {"ofmap_rows", ctx.row_cut.full},
            {"ofmap_cols", ctx.col_cut.full}}},
          {"filter_groups", ctx.filter_cut.count},
          {"row_tiles", ctx.row_cut.count},
          {"col_tiles", ctx.col_cut.count},
          {"fold_count", plan.fold_count},
          {"gemm_repeats", plan.gemm_repeats},
          {"loop_order", filters_outer ? "filters_outer" : "ifmap_outer"},
          {"operands",
           {{"ifmap", {{"residency", ifmap}}},
            {"filter", {{"residency", filter}}},
            {"ofmap", {{"residency", "accumulate_in_buffer"}}}}}};
}

}  // namespace

SystolicPlan plan_row_stationary(const SystolicParams& params, const RowConvShape& shape,
                                 ir::DType element_dtype, bool with_mapping_json,
                                 double dram_bytes_per_cycle) {
  RsContext ctx;
  ctx.params = &params;
  ctx.shape = shape;
  ctx.element_dtype = element_dtype;
  ctx.acc_bytes = ir::dtype_bytes(params.acc_dtype);
  ctx.reuse =
      scratchpad_reuse(params.scratchpads, shape.filter_cols, shape.channels, shape.filters);
  const SystolicBuffers& buffers = params.buffers;
  const int64_t psum_capacity = buffer_capacity_bytes(buffers.ofmap_kib, buffers.double_buffered);
  ctx.ifmap_capacity = buffer_capacity_bytes(buffers.ifmap_kib, buffers.double_buffered);
  const int64_t filter_capacity =
      buffer_capacity_bytes(buffers.filter_kib, buffers.double_buffered);
  ctx.ifmap_fits_whole =
      ctx.bytes_of(checked_mul(shape.images * shape.channels, shape.in_rows * shape.in_cols,
                               "ifmap elements")) <= ctx.ifmap_capacity;
  ctx.filters_fit_whole = ctx.bytes_of(ctx.filter_elements(shape.filters)) <= filter_capacity;

  // The tiling and loop order that finish first when compute and DRAM transfers overlap
  // (taller row tiles keep more PEs busy but hold fewer filters' partial sums, so each filter
  // group re-reads the ifmap; shorter ones re-read halo rows and reload filters more often).
  // Ties: fewer DRAM bytes, then the taller tile, then filters outer.
  SystolicPlan plan;
  RsContext best = ctx;
  double best_time = -1;
  int64_t best_bytes = 0;
  const PeSetMapping whole_set =
      map_pe_sets(params.rows, params.cols, shape.filter_rows, shape.out_rows);
  for (const int64_t rows : row_tile_heights(whole_set, shape, psum_capacity, ctx.acc_bytes)) {
    RsContext trial = ctx;
    set_tiles(trial, psum_capacity, rows);
    trial.group_filters_fit =
        trial.bytes_of(trial.filter_elements(trial.filter_cut.full)) <= filter_capacity;
    for (const LoopOrder order : {LoopOrder::kFiltersOuter, LoopOrder::kIfmapOuter}) {
      trial.order = order;
      SystolicPlan candidate;
      candidate.blocks = order == LoopOrder::kFiltersOuter ? filters_outer_blocks(trial)
                                                           : ifmap_outer_blocks(trial);
      candidate.gemm_repeats = shape.groups;
      sum_plan_folds(candidate, params.rows * params.cols);
      const int64_t bytes = candidate.dram_read_bytes + candidate.dram_write_bytes;
      const double transfer =
          dram_bytes_per_cycle > 0 ? static_cast<double>(bytes) / dram_bytes_per_cycle : 0.0;
      const double time = std::max(static_cast<double>(candidate.compute_cycles), transfer);
      if (best_time < 0 || time < best_time || (time == best_time && bytes < best_bytes)) {
        best_time = time;
        best_bytes = bytes;
        best = trial;
        plan = std::move(candidate);
      }
    }
  }
  if (with_mapping_json) plan.mapping = mapping_json(best, plan);
  return plan;
}

}  // namespace polyarch::archs::systolic
