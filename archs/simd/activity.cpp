#include "archs/simd/activity.h"

#include <string>

#include "archs/mapping_reader.h"

namespace polyarch::archs::simd {

namespace {

nlohmann::ordered_json counts_json(const std::map<ir::DType, int64_t>& counts) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const auto& [dtype, count] : counts) json[std::string(ir::dtype_name(dtype))] = count;
  return json;
}

std::map<ir::DType, int64_t> counts_of(const MappingReader& by_name) {
  std::map<ir::DType, int64_t> counts;
  for (const auto& [name, count] : by_name.counts()) {
    const std::optional<ir::DType> dtype = ir::parse_dtype(name);
    if (!dtype) by_name.fail(name, "'" + name + "' is not a dtype");
    counts[*dtype] += count;
  }
  return counts;
}

}  // namespace

void record_activity(const SimdActivity& activity, nlohmann::ordered_json& mapping) {
  mapping["activity"] = {{"matrix_macs", counts_json(activity.matrix_macs)},
                         {"vector_ops", counts_json(activity.vector_ops)},
                         {"sfu_ops", activity.sfu_ops},
                         {"thread_instructions", activity.thread_instructions}};
}

SimdActivity simd_activity_of(const sim::OpResult& op) {
  const MappingReader counts = MappingReader(op).object("activity");
  SimdActivity activity;
  activity.matrix_macs = counts_of(counts.object("matrix_macs"));
  activity.vector_ops = counts_of(counts.object("vector_ops"));
  activity.sfu_ops = counts.count("sfu_ops");
  activity.thread_instructions = counts.count("thread_instructions");
  return activity;
}

}  // namespace polyarch::archs::simd
