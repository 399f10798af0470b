#include "archs/systolic/mapper.h"

#include <algorithm>
#include <cmath>

#include "archs/systolic/energy.h"
#include "archs/systolic/op_bound.h"
#include "archs/systolic/operand_types.h"
#include "base/checked_math.h"

namespace polyarch::archs::systolic {

namespace {

// Dimension order; values as documented in mapper.h.
enum Dim : std::size_t { kDataflow, kIfmapEighths, kFilterEighths, kDoubleBuffered, kSplits };

const std::array<Dataflow, 3> kDataflows = {
    Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary};

mapping::MappingSpace make_space() {
  std::vector<int64_t> eighths = {1, 2, 3, 4, 5, 6};
  return mapping::MappingSpace({{"dataflow", {0, 1, 2}, {"os", "ws", "is"}},
                                {"ifmap_eighths", eighths, {}},
                                {"filter_eighths", eighths, {}},
                                {"double_buffered", {0, 1}, {"false", "true"}},
                                {"temporal_splits", {1, 2, 4, 8, 16, 32}, {}}});
}

// The streamed dimension T of the operand view (cost_model.h).
int64_t temporal_extent(Dataflow dataflow, const ir::GemmView& view) {
  return operand_dims(dataflow, view.m, view.n, view.k).temporal;
}

// A GEMM view with its streamed dimension cut to `extent` (ws: rows of A, is: columns of B).
ir::GemmView temporal_tile(Dataflow dataflow, const ir::GemmView& view, int64_t extent) {
  ir::GemmView tile = view;
  if (dataflow == Dataflow::kWeightStationary) {
    tile.m = extent;
    // A convolution's distinct ifmap shrinks with its output pixels (halos ignored).
    tile.ifmap_distinct_elements = std::max<int64_t>(
        1, static_cast<int64_t>(static_cast<__int128>(view.ifmap_distinct_elements) * extent /
                                view.m));
  } else if (dataflow == Dataflow::kInputStationary) {
    tile.n = extent;
  }
  return tile;
}

}  // namespace

SystolicMappingProblem::SystolicMappingProblem(SystolicParams unit, const ir::Op& op,
                                               SystolicMappingEnv env)
    : unit_(std::move(unit)),
      view_(ir::gemm_view(op)),
      element_dtype_(systolic_stored_dtype(unit_, op)),  // as its buffers hold the operands
      op_name_(op.name),
      op_(op),
      env_(std::move(env)),
      space_(make_space()),
      energy_rates_(3 * 72) {
  total_kib_ = unit_.buffers.ifmap_kib + unit_.buffers.filter_kib + unit_.buffers.ofmap_kib;
}

Dataflow SystolicMappingProblem::dataflow_of(const mapping::MappingPoint& point) const {
  return kDataflows[point[kDataflow]];
}

SystolicParams SystolicMappingProblem::configured_params(const mapping::MappingPoint& point) const {
  SystolicParams params = unit_;
  params.dataflow = dataflow_of(point);
  const int64_t ifmap = space_.value(point, kIfmapEighths);
  const int64_t filter = space_.value(point, kFilterEighths);
  params.buffers.ifmap_kib = total_kib_ * ifmap / 8;
  params.buffers.filter_kib = total_kib_ * filter / 8;
  params.buffers.ofmap_kib = total_kib_ - params.buffers.ifmap_kib - params.buffers.filter_kib;
  params.buffers.double_buffered = point[kDoubleBuffered] == 1;
  return params;
}

SystolicMappingProblem::Tiling SystolicMappingProblem::tiling(
    const mapping::MappingPoint& point) const {
  const Dataflow dataflow = dataflow_of(point);
  const int64_t extent = temporal_extent(dataflow, view_);
  const int64_t splits = space_.value(point, kSplits);
  Tiling tiling;
  if (splits <= 1) {
    tiling.tile = view_;
    return tiling;
  }
  const int64_t tile_extent = ceil_div(extent, splits);
  tiling.tile = temporal_tile(dataflow, view_, tile_extent);
  tiling.full_tiles = extent / tile_extent;
  const int64_t remainder = extent % tile_extent;
  if (remainder > 0) {
    tiling.last = temporal_tile(dataflow, view_, remainder);
    tiling.has_last = true;
  }
  return tiling;
}

bool SystolicMappingProblem::valid(const mapping::MappingPoint& point) const {
  if (space_.value(point, kIfmapEighths) + space_.value(point, kFilterEighths) > 7) return false;
  const Dataflow dataflow = dataflow_of(point);
  const int64_t splits = space_.value(point, kSplits);
  if (splits > 1 &&
      (dataflow == Dataflow::kOutputStationary || splits > temporal_extent(dataflow, view_))) {
    return false;
  }
  // A convolution cannot be cut into smaller ops the unit runs (tile_ops), so it is not split.
  if (splits > 1 && op_.kind() != ir::OpKind::kGemm) return false;
  // One fold's input slices must fit their buffer slot: Sr-by-T and T-by-Sc slices, clipped
  // to the array, in the operand view of the (tiled) GEMM.
  const SystolicParams params = configured_params(point);
  const ir::GemmView tile = tiling(point).tile;
  const OperandDims dims = operand_dims(dataflow, tile.m, tile.n, tile.k);
  const int64_t rows = std::min(dims.spatial_rows, params.rows);
  const int64_t cols = std::min(dims.spatial_cols, params.cols);
  const int64_t slots = params.buffers.double_buffered ? 2 : 1;
  auto fits = [&](int64_t elements, int64_t kib) {
    return ir::storage_bytes(elements * slots, element_dtype_) <= kib * 1024;
  };
  // The ifmap of a convolution is smaller than its im2col view by this ratio.
  const double ifmap_ratio = static_cast<double>(tile.ifmap_distinct_elements) /
                             (static_cast<double>(tile.m) * static_cast<double>(tile.k));
  auto ifmap_elements = [&](int64_t elements) {
    return static_cast<int64_t>(std::ceil(static_cast<double>(elements) * ifmap_ratio));
  };
  switch (dataflow) {
    case Dataflow::kOutputStationary:  // ifmap rows x T, filter T x cols
      return fits(ifmap_elements(rows * dims.temporal), params.buffers.ifmap_kib) &&
             fits(dims.temporal * cols, params.buffers.filter_kib);
    case Dataflow::kWeightStationary:  // ifmap T x rows, filter rows x cols
      return fits(ifmap_elements(dims.temporal * rows), params.buffers.ifmap_kib) &&
             fits(rows * cols, params.buffers.filter_kib);
    case Dataflow::kInputStationary:  // ifmap rows x cols, filter T x rows
      return fits(ifmap_elements(rows * cols), params.buffers.ifmap_kib) &&
             fits(dims.temporal * rows, params.buffers.filter_kib);
    case Dataflow::kRowStationary:
      break;  // not in this space (mapping_decision.cpp)
  }
  return false;
}

const SystolicMappingProblem::EnergyRates& SystolicMappingProblem::energy_rates(
    const mapping::MappingPoint& point) const {
  const std::size_t index = point[kDataflow] * 72 + point[kIfmapEighths] * 12 +
                            point[kFilterEighths] * 2 + point[kDoubleBuffered];
  std::optional<EnergyRates>& slot = energy_rates_[index];
  if (slot) return *slot;
  EnergyRates rates;
  if (env_.tech != nullptr) {
    // The energy model is linear in its counts: price one of each count alone.
    const SystolicParams params = configured_params(point);
    const sim::EnergyContext context{*env_.tech, env_.dram_kind};
    auto price = [&](auto&& set) {
      sim::OpResult op;
      set(op);
      double joules = 0;
      for (const auto& [action, value] : systolic_op_energy(params, op, context)) {
        if (action != "leakage") joules += value;
      }
      return joules;
    };
    rates.per_mac = price([](sim::OpResult& op) { op.macs = 1; });
    rates.per_ifmap = price([](sim::OpResult& op) { op.sram["ifmap"] = {1, 0}; });
    rates.per_filter = price([](sim::OpResult& op) { op.sram["filter"] = {1, 0}; });
    rates.per_ofmap_read = price([](sim::OpResult& op) { op.sram["ofmap"] = {1, 0}; });
    rates.per_ofmap_write = price([](sim::OpResult& op) { op.sram["ofmap"] = {0, 1}; });
    rates.per_dram_byte = price([](sim::OpResult& op) { op.dram_bytes_read = 1; });
    rates.leakage_w = env_.tech->leakage_w(systolic_area_mm2(params, *env_.tech));
  }
  slot = rates;
  return *slot;
}

mapping::MappingCost SystolicMappingProblem::evaluate(const mapping::MappingPoint& point) const {
  const SystolicParams params = configured_params(point);
  const Tiling tiles = tiling(point);
  const bool double_buffered = params.buffers.double_buffered;
  PlanTime time;
  double energy_j = 0;
  const EnergyRates& rates = energy_rates(point);
  int64_t dram_bytes = 0;
  auto add = [&](const ir::GemmView& tile, double count) {
    const SystolicPlan plan = plan_gemm(params, tile, element_dtype_, false);
    const PlanTime tile_time = plan_time(plan, double_buffered, env_.dram, env_.clock_ghz);
    time.total_s += count * tile_time.total_s;
    time.compute_s += count * tile_time.compute_s;
    time.dram_s += count * tile_time.dram_s;
    dram_bytes += static_cast<int64_t>(count) * (plan.dram_read_bytes + plan.dram_write_bytes);
    energy_j += count * (static_cast<double>(plan.macs) * rates.per_mac +
                         static_cast<double>(plan.ifmap_sram_reads) * rates.per_ifmap +
                         static_cast<double>(plan.filter_sram_reads) * rates.per_filter +
                         static_cast<double>(plan.ofmap_sram_reads) * rates.per_ofmap_read +
                         static_cast<double>(plan.ofmap_sram_writes) * rates.per_ofmap_write +
                         static_cast<double>(plan.dram_read_bytes + plan.dram_write_bytes) *
                             rates.per_dram_byte);
  };
  add(tiles.tile, static_cast<double>(tiles.full_tiles));
  if (tiles.has_last) add(tiles.last, 1.0);

  mapping::MappingCost cost;
  cost.latency_s = time.total_s;
  cost.energy_j = energy_j + rates.leakage_w * time.total_s;
  cost.bound = systolic_bound(time.compute_s, time.dram_s, static_cast<double>(dram_bytes),
                              compulsory_dram_bytes(view_, element_dtype_));
  return cost;
}

double SystolicMappingProblem::latency_lower_bound_s(const mapping::MappingPoint& point) const {
  // Compute alone: folds times fold cycles per tile, no memory.
  const Dataflow dataflow = dataflow_of(point);
  const Tiling tiles = tiling(point);
  auto tile_cycles = [&](const ir::GemmView& tile) {
    const OperandDims dims = operand_dims(dataflow, tile.m, tile.n, tile.k);
    const double folds = static_cast<double>(ceil_div(dims.spatial_rows, unit_.rows)) *
                         static_cast<double>(ceil_div(dims.spatial_cols, unit_.cols)) *
                         static_cast<double>(tile.repeats);
    return folds *
           static_cast<double>(fold_cycles(dataflow, unit_.rows, unit_.cols, dims.temporal));
  };
  double cycles = static_cast<double>(tiles.full_tiles) * tile_cycles(tiles.tile);
  if (tiles.has_last) cycles += tile_cycles(tiles.last);
  // Minus the one cycle scalesim_compat may drop per tile.
  cycles -= static_cast<double>(tiles.full_tiles + (tiles.has_last ? 1 : 0));
  return cycles / (env_.clock_ghz * 1e9);
}

std::vector<double> SystolicMappingProblem::features(const mapping::MappingPoint& point) const {
  const double ifmap = static_cast<double>(space_.value(point, kIfmapEighths)) / 8.0;
  const double filter = static_cast<double>(space_.value(point, kFilterEighths)) / 8.0;
  return {point[kDataflow] == 0 ? 1.0 : 0.0,
          point[kDataflow] == 1 ? 1.0 : 0.0,
          point[kDataflow] == 2 ? 1.0 : 0.0,
          ifmap,
          filter,
          1.0 - ifmap - filter,
          static_cast<double>(point[kDoubleBuffered]),
          std::log2(static_cast<double>(space_.value(point, kSplits))),
          std::log(std::max(1e-12, latency_lower_bound_s(point)))};
}

std::vector<ir::Op> SystolicMappingProblem::tile_ops(const mapping::MappingPoint& point) const {
  if (space_.value(point, kSplits) <= 1) return {op_};
  const auto* gemm = std::get_if<ir::GemmAttrs>(&op_.attrs);
  if (gemm == nullptr) return {};
  const Tiling tiles = tiling(point);
  std::vector<ir::Op> ops;
  auto add = [&](const ir::GemmView& tile, int64_t index) {
    ir::Op tile_op = op_;
    tile_op.name = op_.name + ".tile" + std::to_string(index);
    auto& attrs = std::get<ir::GemmAttrs>(tile_op.attrs);
    attrs.m = tile.m;
    attrs.n = tile.n;
    ops.push_back(std::move(tile_op));
  };
  for (int64_t index = 0; index < tiles.full_tiles; ++index) add(tiles.tile, index);
  if (tiles.has_last) add(tiles.last, tiles.full_tiles);
  return ops;
}

mapping::MappingPoint SystolicMappingProblem::unit_point() const {
  mapping::MappingPoint point(space_.dimension_count(), 0);
  point[kDataflow] = static_cast<uint32_t>(
      std::find(kDataflows.begin(), kDataflows.end(), unit_.dataflow) - kDataflows.begin());
  auto eighths = [&](int64_t kib) {
    const int64_t share = std::clamp<int64_t>((kib * 8 + total_kib_ / 2) / total_kib_, 1, 6);
    return static_cast<uint32_t>(share - 1);
  };
  point[kIfmapEighths] = eighths(unit_.buffers.ifmap_kib);
  point[kFilterEighths] = eighths(unit_.buffers.filter_kib);
  point[kDoubleBuffered] = unit_.buffers.double_buffered ? 1 : 0;
  return point;
}

}  // namespace polyarch::archs::systolic
