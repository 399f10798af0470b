#include "sim/memory/dram/dram_system.h"

#include <algorithm>

#include "base/error.h"

namespace polyarch::sim::dram {

DramSystem::DramSystem(const DramConfig& config, bool column_runs)
    : config_(config),
      mapping_(config),
      is_touched_(static_cast<size_t>(config.pseudo_channel_count()), 0),
      served_channel_bytes_(static_cast<size_t>(config.organization.channels), 0) {
  controllers_.reserve(static_cast<size_t>(config.pseudo_channel_count()));
  for (int channel = 0; channel < config.organization.channels; ++channel) {
    for (int pc = 0; pc < config.organization.pseudo_channels; ++pc) {
      controllers_.emplace_back(config, channel, pc, column_runs);
    }
  }
}

namespace {

// serve() hands the controllers a request's bursts this many at a time and lets them work
// through each part before the next (Controller::run_while_fed), so a request of megabytes
// never sits in memory as one burst list.
constexpr int64_t kBurstsPerPart = 4096;

QueuedBurst queued_burst(const Request& request, int64_t id, const DramAddress& address) {
  return {.request_id = id,
          .arrival_cycle = request.arrival_cycle,
          .address = address,
          .is_write = request.is_write};
}

}  // namespace

void DramSystem::check_request(const Request& request) const {
  if (request.bytes <= 0 || request.addr < 0 || request.arrival_cycle < 0) {
    throw_bad_input(config_key("dram.request"),
                    "a DRAM request needs bytes > 0, addr >= 0 and arrival_cycle >= 0");
  }
}

int64_t DramSystem::new_request() {
  const auto id = static_cast<int64_t>(completion_.size());
  completion_.push_back(-1);
  return id;
}

Controller& DramSystem::controller_of(const DramAddress& address) {
  return controllers_[static_cast<size_t>(index_of(address))];
}

int64_t DramSystem::serve(std::span<const Request> pieces) {
  touched_.clear();
  touched_before_.clear();
  // The pieces' ids run from first_id on. They are not handed out, and every burst of theirs
  // has completed when serve() returns: their slots are dropped again, so the completion list
  // does not grow with the length of a run.
  const auto first_id = static_cast<int64_t>(completion_.size());
  const int64_t burst_bytes = config_.bytes_per_burst();
  int64_t part = 0;
  for (const Request& piece : pieces) {
    check_request(piece);
    const int64_t id = new_request();
    const int64_t last_burst_address = (piece.addr + piece.bytes - 1) / burst_bytes * burst_bytes;
    for (int64_t burst_address = piece.addr / burst_bytes * burst_bytes;
         burst_address <= last_burst_address; burst_address += burst_bytes) {
      const DramAddress address = mapping_.decode(burst_address);
      const int index = index_of(address);
      Controller& controller = controllers_[static_cast<size_t>(index)];
      if (is_touched_[static_cast<size_t>(index)] == 0) {
        // The controller catches up to the request's arrival before it gets its bursts.
        is_touched_[static_cast<size_t>(index)] = 1;
        touched_.push_back(index);
        controller.run_until(piece.arrival_cycle, completion_);
        touched_before_.push_back(ServedCounts::of(controller.stats()));
      }
      controller.add(queued_burst(piece, id, address));
      if (++part == kBurstsPerPart) {
        part = 0;
        for (int touched : touched_) {
          controllers_[static_cast<size_t>(touched)].run_while_fed(completion_);
        }
      }
    }
  }
  served_ = ServedCounts{};
  std::fill(served_channel_bytes_.begin(), served_channel_bytes_.end(), 0);
  for (size_t i = 0; i < touched_.size(); ++i) {
    const auto index = static_cast<size_t>(touched_[i]);
    controllers_[index].run(completion_);
    is_touched_[index] = 0;
    const int64_t bytes_before = served_.bytes;
    served_.add_since(controllers_[index].stats(), touched_before_[i]);
    served_channel_bytes_[index / static_cast<size_t>(config_.organization.pseudo_channels)] +=
        served_.bytes - bytes_before;
  }
  const auto first = completion_.begin() + first_id;
  const int64_t completion =
      first == completion_.end() ? 0 : *std::max_element(first, completion_.end());
  completion_.erase(first, completion_.end());
  return std::max<int64_t>(completion, 0);
}

PimBlockResult DramSystem::serve_pim(const PimBlock& block, int64_t arrival,
                                     const PimInternalBytesSink& internal_bytes) {
  PimBlockResult latest{arrival, arrival};
  served_ = ServedCounts{};
  std::fill(served_channel_bytes_.begin(), served_channel_bytes_.end(), 0);
  for (Controller& controller : controllers_) {
    const ServedCounts before = ServedCounts::of(controller.stats());
    const PimBlockResult result = controller.serve_pim(block, arrival, internal_bytes);
    served_.add_since(controller.stats(), before);
    latest.last_command_cycle = std::max(latest.last_command_cycle, result.last_command_cycle);
    latest.completion_cycle = std::max(latest.completion_cycle, result.completion_cycle);
  }
  return latest;
}

PimCounters DramSystem::pim_counters() const {
  PimCounters total;
  for (const Controller& controller : controllers_) total += controller.pim_counters();
  return total;
}

int64_t DramSystem::enqueue(const Request& request) {
  check_request(request);
  const int64_t id = new_request();
  const int64_t burst_bytes = config_.bytes_per_burst();
  const int64_t first_burst = request.addr / burst_bytes;
  const int64_t last_burst = (request.addr + request.bytes - 1) / burst_bytes;
  for (int64_t burst = first_burst; burst <= last_burst; ++burst) {
    const DramAddress address = mapping_.decode(burst * burst_bytes);
    controller_of(address).add(queued_burst(request, id, address));
  }
  return id;
}

void DramSystem::run() {
  for (Controller& controller : controllers_) controller.run(completion_);
}

bool DramSystem::accepts_burst_at(int64_t byte_address, bool is_write, int64_t cycle) {
  const DramAddress address = mapping_.decode(byte_address);
  Controller& controller = controller_of(address);
  controller.run_until(cycle, completion_);
  return controller.has_queue_room(is_write);
}

void DramSystem::run_until(int64_t cycle) {
  for (Controller& controller : controllers_) controller.run_until(cycle, completion_);
}

int64_t DramSystem::completion_cycle(int64_t request_id) const {
  return completion_.at(static_cast<size_t>(request_id));
}

DramStats DramSystem::stats() const {
  DramStats total;
  for (const Controller& controller : controllers_) total += controller.stats();
  return total;
}

double DramSystem::achieved_bandwidth_gbps() const {
  const DramStats total = stats();
  const int64_t span_cycles = total.last_completion_cycle - total.first_arrival_cycle;
  if (total.first_arrival_cycle < 0 || span_cycles <= 0) return 0.0;
  const double seconds = static_cast<double>(span_cycles) * config_.clock_period_ns() * 1e-9;
  return static_cast<double>(total.bytes_read + total.bytes_written) / seconds / 1e9;
}

double DramSystem::bandwidth_efficiency() const {
  return achieved_bandwidth_gbps() / config_.peak_bandwidth_gbps();
}

const std::vector<Command>& DramSystem::commands(int channel, int pseudo_channel) const {
  return controllers_
      .at(static_cast<size_t>(channel * config_.organization.pseudo_channels + pseudo_channel))
      .commands();
}

}  // namespace polyarch::sim::dram
