#include "archs/pim/activity.h"

#include "archs/mapping_reader.h"

namespace polyarch::archs::pim {

PimCommands& PimCommands::operator+=(const PimCommands& other) {
  activates += other.activates;
  precharges += other.precharges;
  column_reads += other.column_reads;
  refreshes += other.refreshes;
  return *this;
}

void record_activity(const PimActivity& activity, nlohmann::ordered_json& mapping) {
  const PimCommands& commands = activity.commands;
  mapping["commands"] = {{"ACT", commands.activates},
                         {"PRE", commands.precharges},
                         {"RD", commands.column_reads},
                         {"REF", commands.refreshes}};
  mapping["row_buffer_hit_rate"] = activity.row_buffer_hit_rate;
  mapping["pu_utilization"] = activity.pu_utilization;
  mapping["internal_bytes"] = activity.internal_bytes;
  mapping["external_bytes"] = activity.external_bytes;
}

PimActivity pim_activity_of(const sim::OpResult& op) {
  const MappingReader mapping(op);
  const MappingReader commands = mapping.object("commands");
  PimActivity activity;
  activity.commands.activates = commands.count("ACT");
  activity.commands.precharges = commands.count("PRE");
  activity.commands.column_reads = commands.count("RD");
  activity.commands.refreshes = commands.count("REF");
  activity.row_buffer_hit_rate = mapping.number("row_buffer_hit_rate");
  activity.pu_utilization = mapping.number("pu_utilization");
  activity.internal_bytes = mapping.count("internal_bytes");
  activity.external_bytes = mapping.count("external_bytes");
  return activity;
}

}  // namespace polyarch::archs::pim
