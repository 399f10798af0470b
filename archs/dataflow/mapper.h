#pragma once
// Places, routes and modulo-schedules one inner-loop DFG, replicated spatially, and remembers
// the result: the mapping depends only on the graph and the fabric, so the many ops of a model
// that share a tile shape are placed once. The cache is shared by the unit's analytical
// estimates and its SystemC model.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "archs/dataflow/dfg.h"
#include "archs/dataflow/modulo_schedule.h"
#include "archs/dataflow/params.h"
#include "archs/dataflow/placement.h"

namespace polyarch::archs::dataflow {

struct MappedLoop {
  Dfg dfg;  // the replicated graph as placed
  int64_t replicas = 1;
  Placement placement;
  ModuloSchedule schedule;
  std::vector<std::string> picture;  // ASCII placement (placement_picture.h)
};

class MappingCache {
 public:
  // The mapping of `single` replicated `replicas` times; placed at the smallest II its
  // resources allow, relaxed until placement succeeds.
  std::shared_ptr<const MappedLoop> map(const DataflowParams& params, const Dfg& single,
                                        int64_t replicas, int64_t element_bytes);
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const MappedLoop>> loops_;
};

// Places, routes and schedules without caching.
MappedLoop map_loop(const DataflowParams& params, const Dfg& single, int64_t replicas,
                    int64_t element_bytes);

// How many copies of a graph fit the fabric at II = 1 (PE issue slots, memory streams,
// stationary registers); at least 1.
int64_t replicas_to_fill(const DataflowParams& params, const Dfg& single);

}  // namespace polyarch::archs::dataflow
