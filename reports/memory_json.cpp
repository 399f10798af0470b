#include "reports/memory_json.h"

namespace polyarch::reports {

nlohmann::ordered_json memory_json(const sim::MemoryResult& memory) {
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const sim::TensorAddress& tensor : memory.tensors) {
    tensors.push_back({{"name", tensor.name},
                       {"role", tensor.role},
                       {"base_address", tensor.base_address},
                       {"bytes", tensor.bytes}});
  }
  nlohmann::ordered_json json = {{"model", memory.model},
                                 {"capacity_bytes", memory.capacity_bytes},
                                 {"footprint_bytes", memory.footprint_bytes},
                                 {"tensors", tensors}};
  if (memory.jedec) {
    const sim::JedecMemoryCounters& counters = *memory.jedec;
    json["jedec"] = {{"read_bursts", counters.read_bursts},
                     {"write_bursts", counters.write_bursts},
                     {"row_hits", counters.row_hits},
                     {"row_misses", counters.row_misses},
                     {"row_conflicts", counters.row_conflicts},
                     {"activates", counters.activates},
                     {"refreshes", counters.refreshes},
                     {"commands_checked", counters.commands_checked}};
  }
  return json;
}

}  // namespace polyarch::reports
