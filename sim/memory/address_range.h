#pragma once
// Byte ranges of DRAM, and the ranges an op's traffic touches. SystemC-free.
#include <cstdint>
#include <vector>

namespace polyarch::sim {

struct AddressRange {
  int64_t base = 0;
  int64_t bytes = 0;
};

// What an op's DRAM traffic touches: the ranges of its operand tensors and of its results.
struct OpRanges {
  std::vector<AddressRange> reads;
  std::vector<AddressRange> writes;
};

}  // namespace polyarch::sim
