#pragma once
// How long a wave's activations take on the unit's own buffers and bus (params `buffer:` and
// `bus:`), from first principles: bits / (width x clock) + latency per transfer, as NeuroSim's
// synchronous buffers and buses count them (Buffer.cpp CalculateLatency: one line of
// interface_width bits per cycle; Bus.cpp CalculateLatency: bits / busWidth transfers of at
// least one cycle each).
//   input_ns   a wave's input vectors (K elements per vector and weight set, as the rows are
//              driven: im2col, one read per element) read out of the input buffers of the tiles
//              its arrays occupy (their ports in parallel) and carried over the shared bus;
//   output_ns  its outputs (N elements per vector and weight set) over the bus into the output
//              buffers;
//   per wave   the buffers stream into the bus, so each direction takes its slower stage; the
//              bus carries both directions and each buffer has its own port:
//              stream_ns = max(input buffer, output buffer, bus(inputs + outputs)).
// Overlap: the arrays' input and output registers are double-buffered (the unit's two slots),
// so wave i + 1's inputs arrive and wave i - 1's outputs leave while wave i is read; a wave then
// takes max(its array time, stream_ns), and only the first wave's inputs and the last wave's
// outputs are exposed (input_ns before the first read, output_ns after the last result).
#include <cstdint>

#include "archs/crossbar/params.h"

namespace polyarch::archs::crossbar {

struct WaveTransfer {
  double input_ns = 0;   // inputs alone: buffer and bus, the slower
  double output_ns = 0;  // outputs alone
  double stream_ns = 0;  // one wave's share of the steady stream
  double buffer_ns = 0;  // the busier buffer port, one wave
  double bus_ns = 0;     // the bus, one wave (both directions)
};

// `input_bytes` and `output_bytes` of one wave whose arrays span `active_arrays` arrays.
WaveTransfer wave_transfer(const CrossbarParams& params, int64_t input_bytes, int64_t output_bytes,
                           int64_t active_arrays);

}  // namespace polyarch::archs::crossbar
