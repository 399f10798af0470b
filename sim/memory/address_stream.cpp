#include "sim/memory/address_stream.h"

#include <algorithm>

namespace polyarch::sim {

void AddressStream::reset(std::vector<AddressRange> ranges, AddressRange fallback) {
  std::erase_if(ranges, [](const AddressRange& range) { return range.bytes <= 0; });
  if (ranges.empty() && fallback.bytes > 0) ranges.push_back(fallback);
  ranges_ = std::move(ranges);
  range_ = 0;
  offset_ = 0;
}

std::vector<AddressRange> AddressStream::take(int64_t bytes) {
  std::vector<AddressRange> pieces;
  if (ranges_.empty()) return pieces;
  while (bytes > 0) {
    const AddressRange& range = ranges_[range_];
    const int64_t piece = std::min(bytes, range.bytes - offset_);
    // Adjacent pieces (one range ending where the next starts) merge into one.
    if (!pieces.empty() && pieces.back().base + pieces.back().bytes == range.base + offset_) {
      pieces.back().bytes += piece;
    } else {
      pieces.push_back({range.base + offset_, piece});
    }
    bytes -= piece;
    offset_ += piece;
    if (offset_ == range.bytes) {
      offset_ = 0;
      range_ = (range_ + 1) % ranges_.size();
    }
  }
  return pieces;
}

}  // namespace polyarch::sim
