#include "archs/crossbar/op_schedule.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

#include "archs/crossbar/activation_path.h"
#include "archs/crossbar/array_pipeline.h"
#include "archs/crossbar/tile_load.h"

namespace polyarch::archs::crossbar {

namespace {

// Waves simulated per distinct wave shape before the rest repeat the last spacing: the first
// carries the pipeline's fill, the second can still differ (the ADC queue settling), the third
// is steady.
constexpr int64_t kSimulatedFullWaves = 3;

// `total` x part / whole without overflow (the bytes of `part` of `whole` vectors or arrays).
int64_t share(int64_t total, int64_t part, int64_t whole) {
  if (whole <= 0) return 0;
  return static_cast<int64_t>(static_cast<__int128>(total) * part / whole);
}

int64_t cycle_at(double ns, double clock_ghz) {
  return std::max<int64_t>(0, std::llround(ns * clock_ghz));
}

bool same_tile(const sim::TileShape& a, const sim::TileShape& b) {
  return a.cycles == b.cycles && a.dram_read_bytes == b.dram_read_bytes &&
         a.dram_write_bytes == b.dram_write_bytes;
}

bool same_runs(const std::vector<sim::TileRun>& a, const std::vector<sim::TileRun>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const sim::TileRun& x, const sim::TileRun& y) {
                      return x.count == y.count && same_tile(x.tile, y.tile);
                    });
}

void add_run(std::vector<sim::TileRun>& runs, const sim::TileShape& tile, int64_t count) {
  if (count <= 0) return;
  if (!runs.empty() && same_tile(runs.back().tile, tile)) {
    runs.back().count += count;
    return;
  }
  runs.push_back({tile, count});
}

// One pass: the arrays it holds and the bytes it moves.
struct Pass {
  int64_t first_layout_array = 0;
  int64_t full_arrays = 0;  // active in a full wave
  int64_t last_arrays = 0;  // active in the last, partial wave (0: none)
  int64_t full_vectors = 0;
  int64_t full_waves = 0;
  int64_t input_bytes = 0;
  int64_t output_bytes = 0;
  int64_t weight_bytes = 0;  // reprogrammed at the pass's start (0: weights resident)
};

struct PassTiles {
  std::vector<sim::TileRun> runs;
  double read_busy_ns = 0;
  double adc_busy_ns = 0;
  double program_ns = 0;
  double buffer_busy_ns = 0;
  double bus_busy_ns = 0;
  int64_t waves = 0;
};

PassTiles pass_tiles(const CrossbarParams& params, const CrossbarPlan& plan,
                     const ColumnLayout& layout, const Pass& pass, double clock_ghz) {
  PassTiles tiles;
  if (pass.weight_bytes > 0) {
    // A row of every array of the pass per tile; the first row also takes the bytes that do
    // not divide evenly.
    const int64_t row_bytes = pass.weight_bytes / params.rows;
    const int64_t row_cycles = cycle_at(params.cell.write_ns_per_row, clock_ghz);
    add_run(tiles.runs, {row_cycles, row_bytes + pass.weight_bytes % params.rows, 0}, 1);
    add_run(tiles.runs, {row_cycles, row_bytes, 0}, params.rows - 1);
    tiles.program_ns = static_cast<double>(params.rows) * params.cell.write_ns_per_row;
  }
  const int64_t waves = pass.full_waves + (pass.last_arrays > 0 ? 1 : 0);
  if (waves == 0) return tiles;
  std::vector<int> sequence(static_cast<size_t>(std::min(pass.full_waves, kSimulatedFullWaves)), 0);
  if (pass.last_arrays > 0) sequence.push_back(1);
  const WaveTimeline timeline = simulate_waves(
      params, plan.input_slices,
      tile_tracks(params, layout, pass.first_layout_array, {pass.full_arrays, pass.last_arrays}),
      sequence);
  const int64_t full_in = share(pass.input_bytes, pass.full_vectors, plan.mvms);
  const int64_t full_out = share(pass.output_bytes, pass.full_vectors, plan.mvms);
  // The waves' activations on the buffers and the bus (each wave's vectors as driven, its
  // share of the pass's outputs).
  const int64_t last_vectors = plan.mvms - pass.full_waves * pass.full_vectors;
  const WaveTransfer full_transfer =
      wave_transfer(params, plan.vector_input_bytes * pass.full_vectors, full_out,
                    pass.full_arrays);
  const WaveTransfer last_transfer =
      wave_transfer(params, plan.vector_input_bytes * last_vectors,
                    pass.output_bytes - pass.full_waves * full_out, pass.last_arrays);
  const WaveTransfer& first_transfer = pass.full_waves > 0 ? full_transfer : last_transfer;
  const WaveTransfer& final_transfer = pass.last_arrays > 0 ? last_transfer : full_transfer;
  const int64_t fill_cycles = cycle_at(first_transfer.input_ns, clock_ghz);
  add_run(tiles.runs, {fill_cycles, 0, 0}, fill_cycles > 0 ? 1 : 0);
  // Each simulated wave's tile lasts until its results are ready, or while its activations
  // stream if longer; the waves past the simulated ones repeat the last full wave's spacing.
  int64_t previous_cycle = 0;
  for (size_t wave = 0; wave < sequence.size(); ++wave) {
    const int64_t ready_cycle = cycle_at(timeline.ready_ns[wave], clock_ghz);
    const WaveTransfer& transfer = sequence[wave] == 1 ? last_transfer : full_transfer;
    const int64_t cycles =
        std::max(ready_cycle - previous_cycle, cycle_at(transfer.stream_ns, clock_ghz));
    previous_cycle = ready_cycle;
    if (sequence[wave] == 1) {
      add_run(tiles.runs,
              {cycles, pass.input_bytes - pass.full_waves * full_in,
               pass.output_bytes - pass.full_waves * full_out},
              1);
      continue;
    }
    const bool last_simulated_full = wave + 1 == sequence.size() || sequence[wave + 1] == 1;
    const int64_t count = last_simulated_full ? pass.full_waves - static_cast<int64_t>(wave) : 1;
    add_run(tiles.runs, {cycles, full_in, full_out}, count);
  }
  const int64_t drain_cycles = cycle_at(final_transfer.output_ns, clock_ghz);
  add_run(tiles.runs, {drain_cycles, 0, 0}, drain_cycles > 0 ? 1 : 0);
  const double per_wave = static_cast<double>(waves) / static_cast<double>(sequence.size());
  tiles.read_busy_ns = timeline.read_busy_ns * per_wave;
  tiles.adc_busy_ns = timeline.adc_busy_ns * per_wave;
  const double full_count = static_cast<double>(pass.full_waves);
  const double last_count = pass.last_arrays > 0 ? 1.0 : 0.0;
  tiles.buffer_busy_ns = full_count * full_transfer.buffer_ns + last_count * last_transfer.buffer_ns;
  tiles.bus_busy_ns = full_count * full_transfer.bus_ns + last_count * last_transfer.bus_ns;
  tiles.waves = waves;
  return tiles;
}

void add_pass(std::vector<sim::TileBlock>& blocks, const PassTiles& tiles) {
  if (!blocks.empty() && same_runs(blocks.back().runs, tiles.runs)) {
    ++blocks.back().repeat;
    return;
  }
  blocks.push_back({tiles.runs, 1});
}

}  // namespace

CrossbarSchedule schedule_op(const CrossbarParams& params, const CrossbarPlan& plan,
                             double clock_ghz) {
  CrossbarSchedule schedule;
  const ColumnLayout layout{plan.col_blocks, plan.last_block_columns};
  const int64_t available = params.array_count();
  // Passes that differ only in where their arrays start in the layout have the same tiles
  // when they start at the same column block.
  using PassKey = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>;
  std::map<PassKey, PassTiles> memo;
  auto tiles_of = [&](const Pass& pass) -> const PassTiles& {
    const PassKey key{pass.first_layout_array % layout.col_blocks, pass.full_arrays,
                      pass.last_arrays, pass.output_bytes, pass.weight_bytes};
    auto found = memo.find(key);
    if (found == memo.end()) {
      found = memo.emplace(key, pass_tiles(params, plan, layout, pass, clock_ghz)).first;
    }
    return found->second;
  };
  auto account = [&](const PassTiles& tiles, int64_t times) {
    const double count = static_cast<double>(times);
    schedule.read_busy_ns += tiles.read_busy_ns * count;
    schedule.adc_busy_ns += tiles.adc_busy_ns * count;
    schedule.program_ns += tiles.program_ns * count;
    schedule.buffer_busy_ns += tiles.buffer_busy_ns * count;
    schedule.bus_busy_ns += tiles.bus_busy_ns * count;
    schedule.waves += tiles.waves * times;
    for (const sim::TileRun& run : tiles.runs) {
      schedule.compute_cycles += run.tile.cycles * run.count * times;
      schedule.dram_read_bytes += run.tile.dram_read_bytes * run.count * times;
      schedule.dram_write_bytes += run.tile.dram_write_bytes * run.count * times;
    }
  };
  if (plan.passes <= 1) {
    Pass pass;
    pass.full_vectors = plan.replicas;
    pass.full_waves = plan.mvms / plan.replicas;
    pass.full_arrays = plan.arrays_needed * plan.replicas;
    pass.last_arrays = plan.arrays_needed * (plan.mvms % plan.replicas);
    pass.input_bytes = plan.input_bytes;
    pass.output_bytes = plan.output_bytes;
    // Weights that other ops displace between runs are written before the waves.
    pass.weight_bytes = plan.reprogrammed ? plan.weight_bytes : 0;
    const PassTiles& tiles = tiles_of(pass);
    account(tiles, 1);
    schedule.plans.push_back({{{tiles.runs, 1}}, 1});
    return schedule;
  }
  // Reprogrammed passes: every pass but the last fills all arrays and takes an even share of
  // the weights and outputs. Their column-block offsets repeat with period `period`, so one
  // period of passes is a plan repeated, and the remaining passes and the last are another.
  auto pass_at = [&](int64_t index) {
    Pass pass;
    const bool last = index == plan.passes - 1;
    pass.first_layout_array = index * available;
    pass.full_arrays = last ? plan.arrays_needed - index * available : available;
    pass.full_vectors = 1;
    pass.full_waves = plan.mvms;
    pass.input_bytes = plan.input_bytes;
    const int64_t output_share = plan.output_bytes / plan.passes;
    const int64_t weight_share = share(plan.weight_bytes, available, plan.arrays_needed);
    pass.output_bytes = last ? plan.output_bytes - index * output_share : output_share;
    pass.weight_bytes = last ? plan.weight_bytes - index * weight_share : weight_share;
    return pass;
  };
  const int64_t full_passes = plan.passes - 1;
  const int64_t period = layout.col_blocks / std::gcd(available, layout.col_blocks);
  const int64_t periods = full_passes / period;
  if (periods > 0) {
    sim::TilePlan repeated;
    for (int64_t index = 0; index < period; ++index) {
      const PassTiles& tiles = tiles_of(pass_at(index));
      add_pass(repeated.blocks, tiles);
      account(tiles, periods);
    }
    repeated.plan_repeats = periods;
    schedule.plans.push_back(std::move(repeated));
  }
  sim::TilePlan rest;
  for (int64_t index = periods * period; index < plan.passes; ++index) {
    const PassTiles& tiles = tiles_of(pass_at(index));
    add_pass(rest.blocks, tiles);
    account(tiles, 1);
  }
  schedule.plans.push_back(std::move(rest));
  return schedule;
}

}  // namespace polyarch::archs::crossbar
