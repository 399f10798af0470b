#pragma once
// The searches' random numbers: std::mt19937_64 (its output sequence is fixed by the C++
// standard) with distributions written out here, because std::uniform_int_distribution and
// friends may differ between standard libraries and versions; a seed must give the same search
// everywhere.
#include <cstdint>
#include <random>

namespace polyarch::mapping {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  uint64_t next() { return engine_(); }
  // Uniform in [0, bound) by rejection (no modulo bias); bound > 0.
  uint64_t below(uint64_t bound) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t draw = next();
    while (draw >= limit) draw = next();
    return draw % bound;
  }
  // Uniform in [0, 1) from the top 53 bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double probability) { return unit() < probability; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace polyarch::mapping
