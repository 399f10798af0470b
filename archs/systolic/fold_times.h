#pragma once
// Times of recent folds, keyed by fold index. Only simulated folds (and the few a skip
// publishes for its end) get entries, so with fast-forward the window of folds it covers is far
// wider than the number of entries it holds: a repeat pattern of any length can be checked for
// steadiness, since its few simulated folds are still here two iterations later.
#include <cstddef>
#include <cstdint>
#include <map>
#include <systemc>

namespace polyarch::archs::systolic {

class FoldTimes {
 public:
  void set(int64_t fold, sc_core::sc_time time) {
    times_[fold] = time;
    if (times_.size() > kCapacity) times_.erase(times_.begin());
  }
  bool has(int64_t fold) const { return times_.count(fold) > 0; }
  // The fold's time; zero when it has none (folds inside a skip, or evicted long ago).
  sc_core::sc_time at(int64_t fold) const {
    auto found = times_.find(fold);
    return found == times_.end() ? sc_core::SC_ZERO_TIME : found->second;
  }
  void clear() { times_.clear(); }

 private:
  // Enough for two iterations of any steady pattern plus slot look-backs; older entries are
  // never read again.
  static constexpr std::size_t kCapacity = 4096;
  std::map<int64_t, sc_core::sc_time> times_;
};

}  // namespace polyarch::archs::systolic
