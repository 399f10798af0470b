#include "sim/memory/jedec_backend.h"

#include <algorithm>

namespace polyarch::sim {

dram::DramConfig JedecBackend::with_recording(dram::DramConfig config, bool record_commands) {
  config.controller.record_commands = record_commands;
  return config;
}

JedecBackend::JedecBackend(const dram::DramConfig& config, bool record_commands)
    : system_(with_recording(config, record_commands)),
      read_data_cycles_(config.timing.tCL + config.burst_cycles()),
      write_data_cycles_(config.timing.tWL + config.burst_cycles()) {}

JedecService JedecBackend::serve(std::span<const AddressRange> pieces, bool is_write,
                                 int64_t arrival_cycle) {
  requests_.clear();
  for (const AddressRange& piece : pieces) {
    requests_.push_back({.addr = piece.base,
                         .is_write = is_write,
                         .bytes = piece.bytes,
                         .arrival_cycle = arrival_cycle});
  }
  JedecService service;
  service.completion_cycle = std::max(arrival_cycle, system_.serve(requests_));
  service.served = system_.served();
  service.channel_bytes = system_.served_channel_bytes();
  const int64_t data_delay = is_write ? write_data_cycles_ : read_data_cycles_;
  service.last_command_cycle = std::max(arrival_cycle, service.completion_cycle - data_delay);
  return service;
}

JedecService JedecBackend::serve_pim(const dram::PimBlock& block, int64_t arrival_cycle,
                                     const dram::PimInternalBytesSink& internal_bytes) {
  const dram::PimBlockResult result = system_.serve_pim(block, arrival_cycle, internal_bytes);
  JedecService service;
  service.last_command_cycle = result.last_command_cycle;
  service.completion_cycle = result.completion_cycle;
  service.served = system_.served();
  service.channel_bytes = system_.served_channel_bytes();
  return service;
}

std::optional<dram::TimingViolation> JedecBackend::check() const {
  const dram::DramConfig& config = system_.config();
  for (int channel = 0; channel < config.organization.channels; ++channel) {
    for (int pc = 0; pc < config.organization.pseudo_channels; ++pc) {
      if (auto violation = dram::check_command_stream(config, system_.commands(channel, pc))) {
        return violation;
      }
    }
  }
  return std::nullopt;
}

int64_t JedecBackend::commands_recorded() const {
  const dram::DramConfig& config = system_.config();
  int64_t count = 0;
  for (int channel = 0; channel < config.organization.channels; ++channel) {
    for (int pc = 0; pc < config.organization.pseudo_channels; ++pc) {
      count += static_cast<int64_t>(system_.commands(channel, pc).size());
    }
  }
  return count;
}

}  // namespace polyarch::sim
