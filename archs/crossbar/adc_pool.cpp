#include "archs/crossbar/adc_pool.h"

#include <algorithm>

namespace polyarch::archs::crossbar {

AdcPool::AdcPool(int64_t adcs) { free_at_[0.0] = std::max<int64_t>(adcs, 1); }

double AdcPool::convert(double now_ns, int64_t jobs, double job_ns) {
  if (jobs <= 0) return now_ns;
  // ADCs already idle are all free "now": one entry, so the map stays as small as the number
  // of distinct completion times still ahead.
  int64_t idle = 0;
  while (!free_at_.empty() && free_at_.begin()->first <= now_ns) {
    idle += free_at_.begin()->second;
    free_at_.erase(free_at_.begin());
  }
  if (idle > 0) free_at_[now_ns] += idle;
  double completion = now_ns;
  while (jobs > 0) {
    auto earliest = free_at_.begin();
    const double start = earliest->first;
    const int64_t taken = std::min(jobs, earliest->second);
    earliest->second -= taken;
    if (earliest->second == 0) free_at_.erase(earliest);
    const double done = start + job_ns;
    free_at_[done] += taken;
    completion = std::max(completion, done);
    jobs -= taken;
  }
  // Busy time is the union of [request, completion] intervals; requests come in time order.
  busy_ns_ += std::max(0.0, completion - std::max(now_ns, covered_until_ns_));
  covered_until_ns_ = std::max(covered_until_ns_, completion);
  return completion;
}

}  // namespace polyarch::archs::crossbar
