#include "archs/crossbar/adc_pool.h"

#include <algorithm>
#include <cmath>
#include <iterator>

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
  while (jobs > 0 && job_ns > 0) {
    // The earliest free ADCs take whole rounds of jobs until they would free after the next
    // group does: the same assignment as job by job, in steps as few as the groups.
    auto earliest = free_at_.begin();
    const double start = earliest->first;
    const int64_t adcs = earliest->second;
    if (jobs < adcs) {
      earliest->second -= jobs;
      free_at_[start + job_ns] += jobs;
      completion = std::max(completion, start + job_ns);
      break;
    }
    int64_t rounds = jobs / adcs;
    const auto next = std::next(earliest);
    if (next != free_at_.end()) {
      const double until_next =
          std::min(std::ceil((next->first - start) / job_ns), static_cast<double>(rounds));
      rounds = std::max<int64_t>(1, static_cast<int64_t>(until_next));
    }
    free_at_.erase(earliest);
    const double done = start + static_cast<double>(rounds) * job_ns;
    free_at_[done] += adcs;
    completion = std::max(completion, done);
    jobs -= rounds * adcs;
  }
  // Busy time is the union of [request, completion] intervals; requests come in time order.
  busy_ns_ += std::max(0.0, completion - std::max(now_ns, covered_until_ns_));
  covered_until_ns_ = std::max(covered_until_ns_, completion);
  return completion;
}

}  // namespace polyarch::archs::crossbar
