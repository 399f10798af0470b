#include "archs/dataflow/mapper.h"

#include <algorithm>

#include "archs/dataflow/fabric.h"
#include "archs/dataflow/placement_picture.h"
#include "base/error.h"

namespace polyarch::archs::dataflow {

namespace {

// How far above ResMII placement may relax the interval before giving up (a graph whose
// stationary registers exceed the fabric's never fits, whatever the interval).
constexpr int64_t kMaxRelaxation = 64;

std::string signature(const Dfg& dfg, int64_t replicas, int64_t element_bytes) {
  std::string key = std::to_string(replicas) + "/" + std::to_string(element_bytes) + "|";
  for (const DfgNode& node : dfg.nodes) {
    key +=
        node.op + ":" + std::to_string(node.latency) + ":" + std::to_string(node.registers) + ",";
  }
  key += "|";
  for (const DfgEdge& edge : dfg.edges) {
    key += std::to_string(edge.src) + ">" + std::to_string(edge.dst) + "@" +
           std::to_string(edge.distance) + ",";
  }
  return key;
}

int64_t total_registers(const Dfg& dfg) {
  int64_t registers = 0;
  for (const DfgNode& node : dfg.nodes) registers += node.registers;
  return registers;
}

}  // namespace

int64_t replicas_to_fill(const DataflowParams& params, const Dfg& single) {
  int64_t replicas = int64_t{1} << 30;
  if (single.compute_nodes() > 0) {
    replicas = std::min(replicas, params.pe.count() * params.pe.stages / single.compute_nodes());
  }
  if (single.memory_nodes() > 0) {
    replicas =
        std::min(replicas, params.memory.count * params.memory.ports / single.memory_nodes());
  }
  const int64_t registers = total_registers(single);
  if (registers > 0) {
    replicas = std::min(replicas, params.pe.count() * params.pe.registers / registers);
  }
  return std::max<int64_t>(1, replicas);
}

MappedLoop map_loop(const DataflowParams& params, const Dfg& single, int64_t replicas,
                    int64_t element_bytes) {
  MappedLoop loop;
  loop.replicas = replicas;
  loop.dfg = replicas == 1 ? single : single.replicated(replicas);
  if (total_registers(loop.dfg) > params.pe.count() * params.pe.registers) {
    throw_runtime({}, "dataflow unit '" + params.name + "': '" + single.label +
                          "' needs more stationary registers than the fabric has");
  }
  const Fabric fabric(params);
  const int64_t first_ii = res_mii(params, loop.dfg, element_bytes);
  for (int64_t ii = first_ii; ii <= first_ii + kMaxRelaxation; ++ii) {
    loop.placement = place(params, fabric, loop.dfg, ii, element_bytes);
    if (!loop.placement.sites.empty()) break;
  }
  if (loop.placement.sites.empty()) {
    throw_runtime({}, "dataflow unit '" + params.name + "': cannot place '" + single.label + "'");
  }
  loop.schedule = modulo_schedule(params, fabric, loop.dfg, loop.placement, element_bytes);
  loop.picture = placement_picture(fabric, loop.dfg, loop.placement);
  return loop;
}

std::shared_ptr<const MappedLoop> MappingCache::map(const DataflowParams& params, const Dfg& single,
                                                    int64_t replicas, int64_t element_bytes) {
  const std::string key = signature(single, replicas, element_bytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = loops_.find(key);
    if (found != loops_.end()) return found->second;
  }
  auto loop = std::make_shared<const MappedLoop>(map_loop(params, single, replicas, element_bytes));
  std::lock_guard<std::mutex> lock(mutex_);
  return loops_.emplace(key, std::move(loop)).first->second;
}

std::size_t MappingCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return loops_.size();
}

}  // namespace polyarch::archs::dataflow
