#include "archs/crossbar/estimate.h"

#include <algorithm>

#include "archs/crossbar/activation_path.h"

namespace polyarch::archs::crossbar {

namespace {

int64_t ceil_div64(int64_t a, int64_t b) { return (a + b - 1) / b; }

struct Channel {
  double bytes_per_ns = 0;  // <= 0: unlimited
  double latency_ns = 0;

  double transfer_ns(double bytes) const { return bytes_per_ns > 0 ? bytes / bytes_per_ns : 0.0; }
};

// One slice's conversions on the busiest tile when `arrays` arrays are active.
double conversion_ns(const CrossbarParams& params, const CrossbarPlan& plan, int64_t arrays) {
  const int64_t per_adc = params.adc.columns_per_adc;
  const int64_t tile_arrays = std::min(params.arrays_per_tile, arrays);
  // A tile starting at the first column block holds the fewest short last blocks.
  const int64_t last_blocks = tile_arrays / std::max<int64_t>(plan.col_blocks, 1);
  const int64_t jobs = (tile_arrays - last_blocks) * ceil_div64(params.cols, per_adc) +
                       last_blocks * ceil_div64(plan.last_block_columns, per_adc);
  const int64_t adcs = params.adcs_per_tile();
  return static_cast<double>(ceil_div64(jobs, adcs) * per_adc) / params.adc.sample_rate_gsps;
}

// The spacing of identical tiles through two buffer slots as far as the tiles' own compute
// sets it: tile i + 1's load is issued when tile i - 1 has computed (its slot is free) and
// queues behind tile i - 1's write, so with period p, 2p >= compute + transfers + latency. The
// channel's own share (transfers alone) is the separate DRAM bound.
double paced_ns(double compute_ns, double transfer_ns, double latency_ns) {
  return std::max(compute_ns, (compute_ns + transfer_ns + latency_ns) / 2.0);
}

// One pass: its rows (when reprogrammed) and then its waves through the two-slot pipeline. The
// waves cannot start before the last row is written, so each phase costs the slower of its
// tiles and its DRAM bytes, and the phases add.
struct PassCost {
  double compute_ns = 0;  // the tiles back to back, each at its paced spacing
  double wave_ns = 0;     // one wave's slices
  double dram_ns = 0;     // the pass's bytes on the channel
  double phases_ns = 0;   // each phase at its slower side
  CrossbarBusy busy;
};

struct PassShape {
  int64_t arrays = 0;  // active in a full wave
  int64_t waves = 0;
  double wave_vectors = 1;
  double weight_bytes = 0;  // reprogrammed (0: resident)
  double output_bytes = 0;
};

PassCost pass_cost(const CrossbarParams& params, const CrossbarPlan& plan, const PassShape& pass,
                   const Channel& channel) {
  PassCost cost;
  const double slices = static_cast<double>(plan.input_slices);
  const double waves = static_cast<double>(pass.waves);
  const double conv = conversion_ns(params, plan, pass.arrays);
  const double period = std::max(params.read_ns, conv);
  // The first slice's read and the last slice's conversion and add stick out of the stream.
  const double fill = params.read_ns + conv + params.peripheral_ns - period;
  const double mvms = static_cast<double>(std::max<int64_t>(plan.mvms, 1));
  const double wave_bytes = static_cast<double>(plan.input_bytes) + pass.output_bytes;
  // A wave lasts at least its activations' stream through the buffers and the bus; the first
  // wave's inputs and the last wave's outputs on them stick out too.
  const WaveTransfer transfer = wave_transfer(
      params,
      static_cast<int64_t>(static_cast<double>(plan.vector_input_bytes) * pass.wave_vectors),
      static_cast<int64_t>(pass.output_bytes * pass.wave_vectors / mvms), pass.arrays);
  cost.wave_ns = std::max(slices * period, transfer.stream_ns);
  // The first wave computes once its inputs are in; each later one keeps the paced spacing.
  const double waves_ns =
      cost.wave_ns +
      (waves - 1) * paced_ns(cost.wave_ns,
                             channel.transfer_ns(wave_bytes * pass.wave_vectors / mvms),
                             channel.latency_ns) +
      fill + transfer.input_ns + transfer.output_ns;
  cost.compute_ns = waves_ns;
  cost.dram_ns = channel.transfer_ns(wave_bytes + pass.weight_bytes);
  cost.phases_ns = std::max(waves_ns, channel.transfer_ns(wave_bytes));
  cost.busy.read_ns = waves * slices * params.read_ns;
  cost.busy.adc_ns = waves * slices * conv;
  cost.busy.buffer_ns = waves * transfer.buffer_ns;
  cost.busy.bus_ns = waves * transfer.bus_ns;
  if (pass.weight_bytes > 0) {
    const double rows = static_cast<double>(params.rows);
    cost.busy.program_ns = rows * params.cell.write_ns_per_row;
    const double rows_ns =
        params.cell.write_ns_per_row +
        (rows - 1) * paced_ns(params.cell.write_ns_per_row,
                              channel.transfer_ns(pass.weight_bytes / rows), channel.latency_ns);
    cost.compute_ns += rows_ns;
    cost.phases_ns += std::max(rows_ns, channel.transfer_ns(pass.weight_bytes));
  }
  return cost;
}

}  // namespace

CrossbarEstimate estimate_op(const CrossbarParams& params, const CrossbarPlan& plan,
                             const sim::DramView& memory) {
  const Channel channel{memory.dram_bytes_per_second * 1e-9, memory.dram_latency_s * 1e9};
  const double passes = static_cast<double>(plan.passes);
  const double mvms = static_cast<double>(std::max<int64_t>(plan.mvms, 1));
  CrossbarEstimate estimate;
  double compute_ns = 0;  // every pass's tiles, back to back
  double dram_ns = 0;     // every pass's bytes on the channel
  double phases_ns = 0;   // each pass's phases at their slower side
  auto add = [&](const PassCost& cost, double times) {
    compute_ns += times * cost.compute_ns;
    dram_ns += times * cost.dram_ns;
    phases_ns += times * cost.phases_ns;
    estimate.busy.read_ns += times * cost.busy.read_ns;
    estimate.busy.adc_ns += times * cost.busy.adc_ns;
    estimate.busy.program_ns += times * cost.busy.program_ns;
    estimate.busy.buffer_ns += times * cost.busy.buffer_ns;
    estimate.busy.bus_ns += times * cost.busy.bus_ns;
  };
  PassShape shape;
  double first_read_bytes = 0;
  PassCost last;
  if (plan.passes <= 1) {
    const double weight_bytes = plan.reprogrammed ? static_cast<double>(plan.weight_bytes) : 0.0;
    shape = {plan.arrays_needed * plan.replicas, ceil_div64(plan.mvms, plan.replicas),
             static_cast<double>(plan.replicas), weight_bytes,
             static_cast<double>(plan.output_bytes)};
    last = pass_cost(params, plan, shape, channel);
    add(last, 1.0);
    // Written weights: their first row arrives before the arrays start; else the first inputs.
    first_read_bytes = plan.reprogrammed
                           ? weight_bytes / static_cast<double>(params.rows)
                           : static_cast<double>(plan.input_bytes) * shape.wave_vectors / mvms;
  } else {
    // Every pass but the last fills all arrays and takes an even share of weights and outputs.
    const int64_t available = params.array_count();
    const double weight_share = static_cast<double>(plan.weight_bytes) *
                                static_cast<double>(available) /
                                static_cast<double>(plan.arrays_needed);
    shape = {available, plan.mvms, 1.0, weight_share,
             static_cast<double>(plan.output_bytes) / passes};
    add(pass_cost(params, plan, shape, channel), passes - 1);
    PassShape final_pass = shape;
    final_pass.arrays = plan.arrays_needed - (plan.passes - 1) * available;
    final_pass.weight_bytes = static_cast<double>(plan.weight_bytes) - (passes - 1) * weight_share;
    last = pass_cost(params, plan, final_pass, channel);
    add(last, 1.0);
    // The first row of weights arrives before the arrays start.
    first_read_bytes = weight_share / static_cast<double>(params.rows);
  }
  const double last_write_ns = channel.transfer_ns(shape.output_bytes * shape.wave_vectors / mvms);
  // Three lower bounds of a double-buffered pipeline: the tiles between the first load and the
  // last drain; the channel's bytes plus the last wave's compute where the previous wave's
  // drain does not cover it; and each pass's phases at their slower sides.
  const double makespan_ns =
      std::max({channel.transfer_ns(first_read_bytes) + compute_ns + last_write_ns,
                dram_ns + std::max(0.0, last.wave_ns - last_write_ns), phases_ns});
  estimate.seconds = (2.0 * channel.latency_ns + makespan_ns) * 1e-9;
  estimate.busy.dram_ns =
      channel.transfer_ns(static_cast<double>(plan.dram_read_bytes + plan.dram_write_bytes));
  estimate.bound = crossbar_bound(estimate.busy);
  return estimate;
}

}  // namespace polyarch::archs::crossbar
