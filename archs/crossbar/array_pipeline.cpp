#include "archs/crossbar/array_pipeline.h"

#include <algorithm>
#include <map>
#include <queue>
#include <tuple>

#include "archs/crossbar/adc_pool.h"

namespace polyarch::archs::crossbar {

namespace {

// The arrays of a tile that use one column count, stepping in lockstep.
struct ArrayStepper {
  int64_t used_columns = 0;
  std::vector<int64_t> arrays_per_wave;  // active arrays in each wave (0: idle)
  size_t wave = 0;
  int64_t slice = 0;
  bool reading = true;      // else waiting to latch the read it finished
  double converted_ns = 0;  // the previous slice's conversions are done
};

struct TrackTimes {
  std::vector<double> ready_ns;
  double read_busy_ns = 0;
  double adc_busy_ns = 0;
};

TrackTimes simulate_track(const CrossbarParams& params, int64_t slices, const TileTrack& track,
                          const std::vector<int>& sequence) {
  // Every group of a wave shape's load, as one stepper per column count.
  std::map<int64_t, ArrayStepper> by_columns;
  for (size_t wave = 0; wave < sequence.size(); ++wave) {
    for (const ArrayGroup& group : track.loads[static_cast<size_t>(sequence[wave])]) {
      ArrayStepper& stepper = by_columns[group.used_columns];
      stepper.used_columns = group.used_columns;
      stepper.arrays_per_wave.resize(sequence.size(), 0);
      stepper.arrays_per_wave[wave] += group.arrays;
    }
  }
  std::vector<ArrayStepper> steppers;
  for (auto& [columns, stepper] : by_columns) {
    stepper.arrays_per_wave.resize(sequence.size(), 0);
    steppers.push_back(stepper);
  }
  const int64_t columns_per_adc = params.adc.columns_per_adc;
  const int64_t adcs = params.adcs_per_tile();
  const double sample_ns = 1.0 / params.adc.sample_rate_gsps;
  AdcPool pool(adcs);
  TrackTimes times;
  times.ready_ns.assign(sequence.size(), 0.0);
  double reads_covered_ns = 0;
  // Events in time order, ties by stepper index, so the pool sees requests in time order.
  using Event = std::tuple<double, size_t>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  auto skip_idle = [&](ArrayStepper& stepper) {
    while (stepper.wave < sequence.size() && stepper.arrays_per_wave[stepper.wave] == 0) {
      ++stepper.wave;
    }
    return stepper.wave < sequence.size();
  };
  for (size_t index = 0; index < steppers.size(); ++index) {
    if (skip_idle(steppers[index])) events.push({0.0, index});
  }
  while (!events.empty()) {
    const auto [now_ns, index] = events.top();
    events.pop();
    ArrayStepper& stepper = steppers[index];
    if (stepper.reading) {
      // DAC drive and array read of one input slice.
      times.read_busy_ns +=
          std::max(0.0, now_ns + params.read_ns - std::max(now_ns, reads_covered_ns));
      reads_covered_ns = std::max(reads_covered_ns, now_ns + params.read_ns);
      stepper.reading = false;
      events.push({now_ns + params.read_ns, index});
      continue;
    }
    if (stepper.converted_ns > now_ns) {  // the sample-and-hold still holds the last slice
      events.push({stepper.converted_ns, index});
      continue;
    }
    const int64_t arrays = stepper.arrays_per_wave[stepper.wave];
    const int64_t full_groups = stepper.used_columns / columns_per_adc;
    const int64_t rest_columns = stepper.used_columns % columns_per_adc;
    double done = pool.convert(now_ns, arrays * full_groups,
                               static_cast<double>(columns_per_adc) * sample_ns);
    if (rest_columns > 0) {
      done = std::max(done,
                      pool.convert(now_ns, arrays, static_cast<double>(rest_columns) * sample_ns));
    }
    stepper.converted_ns = done;
    stepper.reading = true;
    if (++stepper.slice == slices) {
      // Shift-and-add of the vector's slices, then the result is in the output buffer.
      double& ready = times.ready_ns[stepper.wave];
      ready = std::max(ready, done + params.peripheral_ns);
      stepper.slice = 0;
      ++stepper.wave;
      if (!skip_idle(stepper)) continue;
    }
    events.push({now_ns, index});
  }
  times.adc_busy_ns = pool.busy_ns();
  return times;
}

}  // namespace

WaveTimeline simulate_waves(const CrossbarParams& params, int64_t input_slices,
                            const std::vector<TileTrack>& tracks, const std::vector<int>& sequence) {
  WaveTimeline timeline;
  timeline.ready_ns.assign(sequence.size(), 0.0);
  for (const TileTrack& track : tracks) {
    const TrackTimes times = simulate_track(params, input_slices, track, sequence);
    for (size_t wave = 0; wave < sequence.size(); ++wave) {
      timeline.ready_ns[wave] = std::max(timeline.ready_ns[wave], times.ready_ns[wave]);
    }
    timeline.read_busy_ns = std::max(timeline.read_busy_ns, times.read_busy_ns);
    timeline.adc_busy_ns = std::max(timeline.adc_busy_ns, times.adc_busy_ns);
  }
  // A wave's results leave in order: a later wave is never ready before an earlier one.
  for (size_t wave = 1; wave < sequence.size(); ++wave) {
    timeline.ready_ns[wave] = std::max(timeline.ready_ns[wave], timeline.ready_ns[wave - 1]);
  }
  return timeline;
}

}  // namespace polyarch::archs::crossbar
