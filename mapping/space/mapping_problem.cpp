#include "mapping/space/mapping_problem.h"

namespace polyarch::mapping {

std::string_view bound_name(Bound bound) {
  switch (bound) {
    case Bound::kCompute:
      return "compute";
    case Bound::kBuffer:
      return "buffer";
    case Bound::kL2:
      return "l2";
    case Bound::kDram:
      return "dram";
    case Bound::kNoc:
      return "noc";
    case Bound::kLatency:
      return "latency";
    case Bound::kAdc:
      return "adc";
    case Bound::kReprogramming:
      return "reprogramming";
  }
  return "";
}

std::vector<double> MappingProblem::features(const MappingPoint& point) const {
  const MappingSpace& mapping_space = space();
  std::vector<double> features;
  features.reserve(point.size());
  for (std::size_t i = 0; i < point.size(); ++i) {
    features.push_back(static_cast<double>(mapping_space.value(point, i)));
  }
  return features;
}

}  // namespace polyarch::mapping
