#include "archs/crossbar/activation_path.h"

#include <algorithm>

#include "base/checked_math.h"

namespace polyarch::archs::crossbar {

WaveTransfer wave_transfer(const CrossbarParams& params, int64_t input_bytes, int64_t output_bytes,
                           int64_t active_arrays) {
  WaveTransfer transfer;
  // The tiles the wave's arrays occupy, each with its own buffer ports.
  const double tiles = static_cast<double>(
      std::clamp<int64_t>(ceil_div(std::max<int64_t>(active_arrays, 1), params.arrays_per_tile), 1,
                          params.tiles));
  const double in_bits = 8.0 * static_cast<double>(input_bytes);
  const double out_bits = 8.0 * static_cast<double>(output_bytes);
  const double in_buffer = params.buffer.transfer_ns(in_bits, tiles);
  const double out_buffer = params.buffer.transfer_ns(out_bits, tiles);
  transfer.input_ns = std::max(in_buffer, params.bus.transfer_ns(in_bits));
  transfer.output_ns = std::max(out_buffer, params.bus.transfer_ns(out_bits));
  transfer.buffer_ns = std::max(in_buffer, out_buffer);
  transfer.bus_ns = params.bus.transfer_ns(in_bits + out_bits);
  transfer.stream_ns = std::max(transfer.buffer_ns, transfer.bus_ns);
  return transfer;
}

}  // namespace polyarch::archs::crossbar
