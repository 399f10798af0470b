#pragma once
// Uniform draws from a standard random engine, written out: the engines' output sequences are
// fixed by the C++ standard, but std::uniform_int_distribution and the other distributions are
// not, so the same seed gives different numbers under different standard libraries. Everything
// seeded in polyarch draws through these (a test checks that no source uses the std ones).
#include <cstdint>
#include <limits>

namespace polyarch {

// 64 random bits from a 64-bit engine (std::mt19937_64), or two draws of a 32-bit one.
template <class Engine>
uint64_t random_bits64(Engine& engine) {
  static_assert(Engine::min() == 0, "a full-range engine");
  if constexpr (Engine::max() == std::numeric_limits<uint64_t>::max()) {
    return static_cast<uint64_t>(engine());
  } else {
    static_assert(Engine::max() == std::numeric_limits<uint32_t>::max(), "a 32 or 64-bit engine");
    const uint64_t high = static_cast<uint64_t>(engine());
    return (high << 32) | static_cast<uint64_t>(engine());
  }
}

// Uniform in [0, bound) by rejection, so no value is favoured; bound > 0.
template <class Engine>
uint64_t random_below(Engine& engine, uint64_t bound) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const uint64_t limit = max - max % bound;
  uint64_t draw = random_bits64(engine);
  while (draw >= limit) draw = random_bits64(engine);
  return draw % bound;
}

// Uniform integer in [low, high]; low <= high.
template <class Engine>
int64_t random_int(Engine& engine, int64_t low, int64_t high) {
  const uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  const uint64_t offset = span == std::numeric_limits<uint64_t>::max()
                              ? random_bits64(engine)
                              : random_below(engine, span + 1);
  return static_cast<int64_t>(static_cast<uint64_t>(low) + offset);
}

// Uniform in [0, 1) from the top 53 bits (every double of the form k / 2^53).
template <class Engine>
double random_unit(Engine& engine) {
  return static_cast<double>(random_bits64(engine) >> 11) * 0x1.0p-53;
}

// Uniform in [low, high).
template <class Engine>
double random_real(Engine& engine, double low, double high) {
  return low + (high - low) * random_unit(engine);
}

// True with the given probability.
template <class Engine>
bool random_chance(Engine& engine, double probability) {
  return random_unit(engine) < probability;
}

}  // namespace polyarch
