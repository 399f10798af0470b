#include "archs/crossbar/array_allocation.h"

#include <algorithm>
#include <optional>

#include "archs/crossbar/estimate.h"
#include "base/checked_math.h"

namespace polyarch::archs::crossbar {

ArrayBudget ArrayAllocation::budget_of(const std::string& op_name) const {
  const auto found = budgets.find(op_name);
  return found == budgets.end() ? ArrayBudget{} : found->second;
}

namespace {

// One copy count an op may grow to and its estimated time there.
struct Option {
  int64_t copies = 1;
  double seconds = 0;
};

struct Holder {
  const ir::Op* op = nullptr;
  int64_t arrays_needed = 0;  // one copy of the weights
  size_t at = 0;              // the option it holds now
  // Its copy counts where the waves, ceil(M / copies), drop (more copies between them only
  // idle), from 1 up to what the unit could hold: ~2 sqrt(M) of them.
  std::vector<Option> options;
};

// The op's estimated time (estimate.h) when it runs on `budget`.
double seconds_on(const CrossbarParams& params, const ir::Op& op, ArrayBudget budget,
                  const sim::DramView& memory) {
  return estimate_op(params, plan_op(params, op, std::nullopt, budget), memory).seconds;
}

std::vector<Option> options_of(const CrossbarParams& params, const ir::Op& op,
                               int64_t arrays_needed, int64_t mvms, const sim::DramView& memory) {
  std::vector<Option> options;
  const int64_t most = std::min(mvms, params.array_count() / arrays_needed);
  for (int64_t copies = 1; copies <= most;) {
    options.push_back(
        {copies, seconds_on(params, op, ArrayBudget{arrays_needed * copies, true}, memory)});
    const int64_t waves = ceil_div(mvms, copies);
    if (waves <= 1) break;
    copies = ceil_div(mvms, waves - 1);
  }
  return options;
}

}  // namespace

ArrayAllocation allocate_arrays(const CrossbarParams& params, const std::vector<const ir::Op*>& ops,
                                const sim::DramView& memory) {
  ArrayAllocation allocation;
  std::vector<Holder> holders;
  int64_t needed = 0;
  for (const ir::Op* op : ops) {
    if (!crossbar_supports(*op) || allocation.budgets.count(op->name) > 0) continue;
    const CrossbarPlan alone = plan_op(params, *op);
    holders.push_back({op, alone.arrays_needed, 0, {}});
    allocation.budgets[op->name] = ArrayBudget{};
    needed = checked_add(needed, alone.arrays_needed, "crossbar arrays");
  }
  const int64_t arrays = params.array_count();
  auto written = [&] {
    allocation.resident = false;
    for (auto& [name, budget] : allocation.budgets) budget = ArrayBudget{arrays, false};
    return allocation;
  };
  if (needed > arrays) return written();
  for (Holder& holder : holders) {
    holder.options =
        options_of(params, *holder.op, holder.arrays_needed, plan_op(params, *holder.op).mvms,
                   memory);
  }
  // Each step moves one op to the option that saves the most time per added array among those
  // that fit the spare arrays (a larger jump can pay where the next one alone does not: ADCs a
  // tile's copies share).
  int64_t spare = arrays - needed;
  while (true) {
    Holder* best = nullptr;
    size_t best_option = 0;
    double best_gain = -1;  // seconds saved per array; the first op in issue order wins ties
    for (Holder& holder : holders) {
      const Option& now = holder.options[holder.at];
      for (size_t next = holder.at + 1; next < holder.options.size(); ++next) {
        const Option& option = holder.options[next];
        const int64_t cost = holder.arrays_needed * (option.copies - now.copies);
        if (cost > spare) break;
        const double gain = (now.seconds - option.seconds) / static_cast<double>(cost);
        if (gain >= 0 && gain > best_gain) {
          best = &holder;
          best_option = next;
          best_gain = gain;
        }
      }
    }
    if (best == nullptr) break;
    const int64_t added = best->options[best_option].copies - best->options[best->at].copies;
    spare -= best->arrays_needed * added;
    best->at = best_option;
  }
  // Holding every op's weights pays only where it is faster than writing them: a unit whose ops
  // fit only with few copies each can run them sooner on the whole unit, writing each op's
  // weights at its run (the sum of the ops' estimated times decides; ties stay resident).
  double resident_seconds = 0;
  double written_seconds = 0;
  for (const Holder& holder : holders) {
    resident_seconds += holder.options[holder.at].seconds;
    written_seconds += seconds_on(params, *holder.op, ArrayBudget{arrays, false}, memory);
  }
  if (written_seconds < resident_seconds) return written();
  for (const Holder& holder : holders) {
    allocation.budgets[holder.op->name] =
        ArrayBudget{holder.arrays_needed * holder.options[holder.at].copies, true};
  }
  return allocation;
}

}  // namespace polyarch::archs::crossbar
