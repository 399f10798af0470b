#pragma once
// How many tiles the tile runner's loader may run ahead of compute (its buffer slots), as a
// SystemC-free constant: mappers size their staging to it without seeing the runner.
#include <cstdint>

namespace polyarch::sim {

// At most this many slots, so that a fast-forward skip, which publishes kVirtualDepth (8) times
// per thread for its last tiles, can publish more times than the slot waits reach back
// (tile_runner.h).
inline constexpr int64_t kMaxTileSlots = 6;

}  // namespace polyarch::sim
