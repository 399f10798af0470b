#pragma once
// Times of recent tiles, keyed by tile index. Only simulated tiles (and the few a skip
// publishes for its end) get entries, so with fast-forward the window of tiles it covers is far
// wider than the number of entries it holds: a repeat pattern of any length can be checked for
// steadiness, since its few simulated tiles are still here two iterations later.
#include <cstddef>
#include <cstdint>
#include <map>
#include <systemc>

namespace polyarch::sim {

class TileTimes {
 public:
  void set(int64_t tile, sc_core::sc_time time) {
    times_[tile] = time;
    if (times_.size() > kCapacity) times_.erase(times_.begin());
  }
  bool has(int64_t tile) const { return times_.count(tile) > 0; }
  // The tile's time; zero when it has none (tiles inside a skip, or evicted long ago).
  sc_core::sc_time at(int64_t tile) const {
    auto found = times_.find(tile);
    return found == times_.end() ? sc_core::SC_ZERO_TIME : found->second;
  }
  void clear() { times_.clear(); }

 private:
  // Enough for two iterations of any steady pattern plus slot look-backs; older entries are
  // never read again.
  static constexpr std::size_t kCapacity = 4096;
  std::map<int64_t, sc_core::sc_time> times_;
};

}  // namespace polyarch::sim
