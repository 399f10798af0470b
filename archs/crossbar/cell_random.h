#pragma once
// Counter-based random numbers for the crossbar's functional effects: a draw depends only on
// (seed, stream, index, purpose), not on the order in which cells or reads are visited, so a
// run is reproducible whatever the tiling or op order, and one layer's faults do not move when
// another layer changes. The mixer is SplitMix64's finaliser (Steele et al., OOPSLA 2014).
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string_view>

namespace polyarch::archs::crossbar {

inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A stream per (op name, weight set): FNV-1a of the name, mixed with the set.
inline uint64_t stream_of(std::string_view op_name, int64_t weight_set) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : op_name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return mix64(hash ^ mix64(static_cast<uint64_t>(weight_set)));
}

// What a draw is for, so that the draws of different effects on one cell are independent.
enum class Draw : uint64_t { kProgramVariation = 1, kStuckAt = 2, kReadNoise = 3 };

class CellRandom {
 public:
  CellRandom(uint64_t seed, uint64_t stream) : key_(mix64(mix64(seed) ^ stream)) {}

  // Uniform in [0, 1).
  double uniform(uint64_t index, Draw draw, uint64_t lane = 0) const {
    const uint64_t bits =
        mix64(key_ ^ mix64(index * 4 + static_cast<uint64_t>(draw)) ^ mix64(~lane));
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
  }
  // Standard normal (Box-Muller on two independent uniforms).
  double gaussian(uint64_t index, Draw draw) const {
    const double u1 = 1.0 - uniform(index, draw, 0);  // (0, 1]: log stays finite
    const double u2 = uniform(index, draw, 1);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  uint64_t key_;
};

}  // namespace polyarch::archs::crossbar
