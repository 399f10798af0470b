#pragma once
// What a unit kind plugs into the search: its mapping space for one op, a validity predicate
// (buffer capacity: a mapping whose tiles do not fit is never evaluated), an analytical cost
// model fast enough to call hundreds of thousands of times a second, and the features a learned
// ranker sees. One implementation per kind lives in archs/<kind>/mapper.{h,cpp}.
#include <limits>
#include <string>
#include <vector>

#include "mapping/space/mapping_space.h"

namespace polyarch::mapping {

// What limits a mapping, the explain output's "why": the compute units, on-chip buffer capacity, the L2 / on-chip
// bandwidth, DRAM, the network on chip, or fixed latencies.
// kAdc and kReprogramming: an analog crossbar's shared converters and its weight writes.
enum class Bound { kCompute, kBuffer, kL2, kDram, kNoc, kLatency, kAdc, kReprogramming };
std::string_view bound_name(Bound bound);

struct MappingCost {
  double latency_s = 0;
  double energy_j = 0;
  Bound bound = Bound::kCompute;
  double average_power_w() const { return latency_s > 0 ? energy_j / latency_s : 0.0; }
};

class MappingProblem {
 public:
  virtual ~MappingProblem() = default;
  virtual const MappingSpace& space() const = 0;
  // Buffer capacity and any other hard rule of the kind; cheap, called before evaluate.
  virtual bool valid(const MappingPoint& point) const = 0;
  // The analytical cost of a valid point.
  virtual MappingCost evaluate(const MappingPoint& point) const = 0;
  // A lower bound on the latency of `point`, cheaper than evaluate (e.g. compute cycles only),
  // for pruning: exhaustive search skips a point whose bound cannot beat the best so far.
  virtual double latency_lower_bound_s(const MappingPoint& point) const {
    (void)point;
    return 0.0;
  }
  // Numeric features of a point for the learned ranker; by default the dimension values.
  virtual std::vector<double> features(const MappingPoint& point) const;
};

}  // namespace polyarch::mapping
