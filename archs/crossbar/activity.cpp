#include "archs/crossbar/activity.h"

#include "archs/mapping_reader.h"

namespace polyarch::archs::crossbar {

void record_activity(const CrossbarActivity& activity, nlohmann::ordered_json& mapping) {
  mapping["adc_conversions"] = activity.adc_conversions;
  mapping["dac_drives"] = activity.dac_drives;
  mapping["cell_reads"] = activity.cell_reads;
  mapping["cells_reprogrammed"] = activity.cells_reprogrammed;
}

CrossbarActivity crossbar_activity_of(const sim::OpResult& op) {
  const MappingReader mapping(op);
  CrossbarActivity activity;
  activity.adc_conversions = mapping.count("adc_conversions");
  activity.dac_drives = mapping.count("dac_drives");
  activity.cell_reads = mapping.count("cell_reads");
  activity.cells_reprogrammed = mapping.count("cells_reprogrammed");
  return activity;
}

}  // namespace polyarch::archs::crossbar
