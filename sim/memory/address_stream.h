#pragma once
// The addresses of one direction (reads or writes) of a unit's DRAM traffic during an op. A
// unit's model knows how many bytes each tile moves but not which elements they are, so its
// requests walk the op's operand ranges in order, one byte after the last, and start over at the
// first range when the op moves more bytes than its tensors hold (operands fetched again in a
// later fold). The stream is therefore sequential within a tensor: row-buffer locality follows
// the tensors' placement, not a tile's strides. SystemC-free.
#include <cstdint>
#include <vector>

#include "sim/memory/address_range.h"

namespace polyarch::sim {

class AddressStream {
 public:
  // Starts over at the first byte of `ranges`; ranges of zero bytes are dropped. With no ranges
  // the stream uses `fallback` (a unit's scratch range, for an op without tensors).
  void reset(std::vector<AddressRange> ranges, AddressRange fallback);
  // The next `bytes` bytes of the stream as contiguous pieces, in order.
  std::vector<AddressRange> take(int64_t bytes);

 private:
  std::vector<AddressRange> ranges_;
  std::size_t range_ = 0;  // the range the next byte is in
  int64_t offset_ = 0;     // ... and its offset there
};

}  // namespace polyarch::sim
