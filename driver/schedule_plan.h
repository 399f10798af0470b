#pragma once
// The program a run simulates: on several units the list scheduler's plan (under the SoC's
// power cap where it has one), else each op on the first unit that supports it; with
// micro-batches the graph repeated for layer pipelining (mapping/partition/list_scheduler.h).
// Records for the report what the plan moved between units and the single-unit baselines.
#include <optional>
#include <vector>

#include "archs/soc/soc_config.h"
#include "mapping/partition/list_scheduler.h"
#include "sim/result.h"

namespace polyarch::driver {

struct PlannedProgram {
  mapping::Program program;
  std::optional<sim::PowerCapTrace> power_cap;
  std::optional<sim::ScheduleTrace> schedule;  // null: one unit and one micro-batch
};

// Cross-unit transfers on `soc`: the interconnect's latency_cycles as the hand-over; with
// `interconnect.transfers: copy`, bytes at the DRAM bandwidth the units see (limited by the
// interconnect's).
mapping::TransferModel transfer_model(const archs::SocConfig& soc);

// The graph's ops in topological order: the program each unit's estimates see
// (archs::UnitConfig::program_estimates).
std::vector<const ir::Op*> program_ops(const ir::Graph& graph);

// Each unit's support and analytical estimates, for the partitioners: each op alone (an empty
// program), or within `graph`'s or `program`'s ops (a unit whose ops share its resources sizes
// each op's share from them, as its simulation does).
std::vector<mapping::UnitCapability> unit_capabilities(const archs::SocConfig& soc);
std::vector<mapping::UnitCapability> unit_capabilities(const archs::SocConfig& soc,
                                                       const ir::Graph& graph);
std::vector<mapping::UnitCapability> unit_capabilities(const archs::SocConfig& soc,
                                                       const std::vector<const ir::Op*>& program);

PlannedProgram plan_program(const archs::SocConfig& soc, const ir::Graph& graph,
                            int micro_batches = 1);

// The pipeline figures of a run of `micro_batches` inputs against one input's simulated latency
// (run `micro_batches` times one after another); planned makespans as the schedules had them.
sim::PipelineTrace pipeline_trace(const sim::RunResult& pipelined, int micro_batches,
                                  double single_latency_s, double planned_makespan_s,
                                  double planned_single_makespan_s);

}  // namespace polyarch::driver
