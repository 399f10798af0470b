#include "archs/mimd/activity.h"

#include <cmath>

#include "archs/mapping_reader.h"

namespace polyarch::archs::mimd {

namespace {

// Doubles hold integers exactly up to 2^53.
constexpr double kExactIntegerLimit = 9007199254740992.0;

// The simulation's whole counts as integers (as reports have always shown them), fractions as
// they are.
nlohmann::ordered_json number_json(double value) {
  if (value == std::floor(value) && std::fabs(value) <= kExactIntegerLimit) {
    return static_cast<int64_t>(value);
  }
  return value;
}

}  // namespace

void record_activity(const MimdActivity& activity, nlohmann::ordered_json& mapping) {
  mapping["noc_link_bytes"] = number_json(activity.noc_link_bytes);
  mapping["activity"] = {{"flops", activity.flops}};
}

MimdActivity mimd_activity_of(const sim::OpResult& op) {
  const MappingReader mapping(op);
  MimdActivity activity;
  activity.noc_link_bytes = mapping.number("noc_link_bytes");
  activity.flops = mapping.object("activity").count("flops");
  return activity;
}

}  // namespace polyarch::archs::mimd
