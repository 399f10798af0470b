#include "archs/dataflow/activity.h"

#include <string>

#include "archs/mapping_reader.h"

namespace polyarch::archs::dataflow {

void record_activity(const DataflowActivity& activity, const nlohmann::ordered_json& run_counters,
                     nlohmann::ordered_json& mapping) {
  const PhaseActivity& work = activity.work;
  mapping["dtype"] = std::string(ir::dtype_name(activity.dtype));
  for (auto counter = run_counters.begin(); counter != run_counters.end(); ++counter) {
    mapping[counter.key()] = counter.value();
  }
  mapping["activity"] = {{"macs", work.macs},
                         {"alu_ops", work.alu_ops},
                         {"mul_ops", work.mul_ops},
                         {"special_ops", work.special_ops},
                         {"scratchpad_bytes", work.scratchpad_bytes},
                         {"network_bit_hops", work.network_bit_hops},
                         {"config_bytes", activity.config_bytes}};
}

DataflowActivity dataflow_activity_of(const sim::OpResult& op) {
  const MappingReader mapping(op);
  const MappingReader counts = mapping.object("activity");
  DataflowActivity activity;
  activity.dtype = mapping.dtype("dtype");
  activity.work.macs = counts.count("macs");
  activity.work.alu_ops = counts.count("alu_ops");
  activity.work.mul_ops = counts.count("mul_ops");
  activity.work.special_ops = counts.count("special_ops");
  activity.work.scratchpad_bytes = counts.count("scratchpad_bytes");
  activity.work.network_bit_hops = counts.count("network_bit_hops");
  activity.config_bytes = counts.count("config_bytes");
  return activity;
}

}  // namespace polyarch::archs::dataflow
