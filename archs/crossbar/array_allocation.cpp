#include "archs/crossbar/array_allocation.h"

#include <optional>

#include "archs/crossbar/estimate.h"
#include "base/checked_math.h"

namespace polyarch::archs::crossbar {

ArrayBudget ArrayAllocation::budget_of(const std::string& op_name) const {
  const auto found = budgets.find(op_name);
  return found == budgets.end() ? ArrayBudget{} : found->second;
}

namespace {

struct Holder {
  const ir::Op* op = nullptr;
  int64_t arrays_needed = 0;  // one copy of the weights
  int64_t mvms = 0;
  int64_t copies = 1;
  double seconds = 0;  // estimated at `copies`
  std::optional<int64_t> next;  // the next step's copies (nullopt: one wave already)
  double next_seconds = 0;      // estimated at `next`
};

double seconds_with(const CrossbarParams& params, const Holder& holder, int64_t copies,
                    const sim::DramView& memory) {
  const ArrayBudget budget{holder.arrays_needed * copies, true};
  return estimate_op(params, plan_op(params, *holder.op, std::nullopt, budget), memory).seconds;
}

// The next step: the fewest copies above `copies` that take one wave off, and its time.
void plan_next_step(const CrossbarParams& params, Holder& holder, const sim::DramView& memory) {
  const int64_t waves = ceil_div(holder.mvms, holder.copies);
  holder.next = std::nullopt;
  if (waves <= 1) return;
  holder.next = ceil_div(holder.mvms, waves - 1);
  holder.next_seconds = seconds_with(params, holder, *holder.next, memory);
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
    holders.push_back({op, alone.arrays_needed, alone.mvms, 1, 0.0});
    allocation.budgets[op->name] = ArrayBudget{};
    needed = checked_add(needed, alone.arrays_needed, "crossbar arrays");
  }
  const int64_t arrays = params.array_count();
  if (needed > arrays) {
    allocation.resident = false;
    for (auto& [name, budget] : allocation.budgets) budget = ArrayBudget{arrays, false};
    return allocation;
  }
  for (Holder& holder : holders) {
    holder.seconds = seconds_with(params, holder, 1, memory);
    plan_next_step(params, holder, memory);
  }
  int64_t spare = arrays - needed;
  while (true) {
    Holder* best = nullptr;
    double best_gain = -1;  // seconds saved per array; the first op in issue order wins ties
    for (Holder& holder : holders) {
      if (!holder.next) continue;
      const int64_t cost = holder.arrays_needed * (*holder.next - holder.copies);
      if (cost > spare) continue;
      const double gain = (holder.seconds - holder.next_seconds) / static_cast<double>(cost);
      if (gain >= 0 && gain > best_gain) {
        best = &holder;
        best_gain = gain;
      }
    }
    if (best == nullptr) break;
    spare -= best->arrays_needed * (*best->next - best->copies);
    best->copies = *best->next;
    best->seconds = best->next_seconds;
    plan_next_step(params, *best, memory);
  }
  for (const Holder& holder : holders) {
    allocation.budgets[holder.op->name] = ArrayBudget{holder.arrays_needed * holder.copies, true};
  }
  return allocation;
}

}  // namespace polyarch::archs::crossbar
