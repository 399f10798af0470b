#pragma once
// What every unit kind with a mapping space shares between `polyarch run --search` and
// `polyarch compile --explain`: the energy table its cost model prices a mapping with, one op's
// mapping space as a search problem with the op part of its decision key, and a unit's searched
// decisions during a run. A kind plugs in through UnitConfig::mapping_query (unit_config.h); the
// search, the decision cache and the explain text are generic (mapping/).
#include <memory>
#include <optional>
#include <string>

#include "mapping/cache/unit_decisions.h"
#include "mapping/space/mapping_problem.h"
#include "sim/energy/energy_context.h"
#include "sim/memory/memory_view.h"
#include "sim/result.h"

namespace polyarch::archs {

// The technology table (after the arch file's overrides) and DRAM kind a mapping's energy is
// priced with; without a table a cost model reports 0 J.
struct MappingEnergy {
  std::shared_ptr<const sim::TechTable> tech;
  std::string dram_kind = "ddr4";

  bool priced() const { return tech != nullptr; }
  // The total of a kind's energy model (a function of sim::EnergyContext returning energy by
  // action) for one planned op; 0 without a table.
  template <typename EnergyModel>
  double joules(EnergyModel&& energy_of) const {
    if (!tech) return 0.0;
    double total = 0.0;
    for (const auto& [action, value] : energy_of(sim::EnergyContext{*tech, dram_kind})) {
      total += value;
    }
    return total;
  }
  // The same for a kind's energy model of the form op_energy(params, op, activity, context),
  // priced on a planned op (planned_op_result) and the plan's typed activity.
  template <typename OpEnergy, typename Params, typename Activity>
  double planned_joules(OpEnergy&& op_energy, const Params& params, const sim::OpResult& planned,
                        const Activity& activity) const {
    return joules([&](const sim::EnergyContext& context) {
      return op_energy(params, planned, activity, context);
    });
  }
};

// An op as a kind's energy model sees it after the analytical model planned it: the plan's
// MACs and DRAM bytes and the estimated latency (for leakage). The rest of what the plan did
// reaches the energy model as the kind's typed activity, not through the mapping.
sim::OpResult planned_op_result(int64_t macs, int64_t dram_bytes_read, int64_t dram_bytes_written,
                                double latency_s);

// The surroundings part of an op_shape key: " clock=... bw=... lat=..." of the unit's clock and
// DRAM as its cost model sees them (the estimate and the SystemC model build the same view).
std::string channel_key(double clock_ghz, const sim::MemoryView& memory);

// One op's mapping space on one unit, ready to search.
struct MappingQuery {
  std::shared_ptr<const mapping::MappingProblem> problem;
  // The op part of the decision key: the op's shape and whatever of the unit's surroundings the
  // cost model reads (clock, DRAM); the unit's own description completes the key.
  std::string op_shape;
};

// The same, with the kind's own problem type, whose plan(point) gives the plan the unit runs.
template <typename Problem>
struct KindMappingQuery {
  std::shared_ptr<const Problem> problem;
  std::string op_shape;

  MappingQuery generic() const { return {problem, op_shape}; }
};

// What UnitConfig::mapping_query returns for a kind's query.
template <typename Problem>
std::optional<MappingQuery> generic_query(const std::optional<KindMappingQuery<Problem>>& query) {
  return query ? std::optional(query->generic()) : std::nullopt;
}

// A unit's mapping search during a run: its decisions (searched once per op shape, cached) and
// the energy table the cost model prices them with.
class UnitSearch {
 public:
  UnitSearch(std::shared_ptr<const mapping::SearchPolicy> policy, std::string unit_config,
             MappingEnergy energy)
      : decisions_(std::move(policy), std::move(unit_config)), energy_(std::move(energy)) {}

  const MappingEnergy& energy() const { return energy_; }
  const mapping::SearchPolicy& policy() const { return decisions_.policy(); }
  std::optional<mapping::Decision> decide(const MappingQuery& query) {
    return decisions_.decide(*query.problem, query.op_shape);
  }
  // The decision's record for an op's `mapping.search` in the report.
  nlohmann::ordered_json decision_json(const mapping::Decision& decision) const {
    return mapping::decision_json(decisions_.policy(), decision);
  }

 private:
  mapping::UnitDecisions decisions_;
  MappingEnergy energy_;
};

// The plan a unit runs for an op: with `search` and a mapping space for the op, the plan of the
// searched point (the decision recorded in the plan's mapping.search); otherwise `own()`, the
// kind's own choice. `query` is called only with a search.
template <typename MakeQuery, typename OwnPlan>
auto searched_plan(UnitSearch* search, MakeQuery&& query, OwnPlan&& own) -> decltype(own()) {
  if (search == nullptr) return own();
  const auto made = query(search->energy());
  if (!made) return own();
  const std::optional<mapping::Decision> decision = search->decide(made->generic());
  if (!decision) return own();
  auto plan = made->problem->plan(decision->point);
  plan.mapping["search"] = search->decision_json(*decision);
  return plan;
}

}  // namespace polyarch::archs
