#pragma once
// The ADCs of one crossbar tile (adc.per_tile) as a shared, token-counted resource. Every ADC
// of the tile can convert any column group of the tile's arrays (a group: the up to
// adc.columns_per_adc columns one ADC serves through its column multiplexer, one column per
// sample), so arrays that use few columns leave converter time to the others, and with fewer
// ADCs than column groups the arrays queue for them. Requests are served first come,
// first served: each conversion job takes the ADC that frees first. All times in ns.
#include <cstdint>
#include <map>

namespace polyarch::archs::crossbar {

class AdcPool {
 public:
  explicit AdcPool(int64_t adcs);

  // Queues `jobs` conversion jobs of `job_ns` each at time `now_ns`; returns when the last of
  // them completes. Jobs of one call start in order on the earliest free ADCs.
  double convert(double now_ns, int64_t jobs, double job_ns);

  // The time at least one ADC was converting or had work queued, since the pool was made.
  double busy_ns() const { return busy_ns_; }

 private:
  // ADCs by the time they become free (several ADCs freeing at once share one entry).
  std::map<double, int64_t> free_at_;
  double covered_until_ns_ = 0;
  double busy_ns_ = 0;
};

}  // namespace polyarch::archs::crossbar
