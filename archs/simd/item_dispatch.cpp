#include "archs/simd/item_dispatch.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>

namespace polyarch::archs::simd {

namespace {

// One core under processor sharing. Its residents' service advances at 1 / residents per unit
// of real time; `service` is the service every resident has received since `updated`'s
// origin, so a resident admitted at service s with n steps ends when service reaches s + n.
struct Core {
  double updated = 0;  // real time of the last event
  double service = 0;
  std::multiset<double> ends;  // service at which each resident ends
  int64_t assigned = 0;        // steps of all items given to this core
  double next_end() const {
    return updated + (*ends.begin() - service) * static_cast<double>(ends.size());
  }
};

}  // namespace

std::vector<ActiveSpan> dispatch_items(const std::vector<int64_t>& pattern, int64_t repeats,
                                       int64_t cores, int64_t resident) {
  if (pattern.empty() || repeats <= 0) return {};
  if (cores <= 0 || resident <= 0) throw std::invalid_argument("dispatch_items: no core slots");
  const int64_t items = static_cast<int64_t>(pattern.size()) * repeats;
  int64_t next = 0;
  auto steps_of = [&](int64_t item) {
    return pattern[static_cast<std::size_t>(item % static_cast<int64_t>(pattern.size()))];
  };
  std::vector<Core> state(static_cast<std::size_t>(cores));
  auto admit = [&](Core& core) {
    const int64_t steps = steps_of(next++);
    core.ends.insert(core.service + static_cast<double>(steps));
    core.assigned += steps;
  };
  // The first items go out breadth first: one to every core, then a second to every core, ...
  for (int64_t slot = 0; slot < resident && next < items; ++slot) {
    for (Core& core : state) {
      if (next >= items) break;
      admit(core);
    }
  }
  // Events: (real time of a core's next item end, core index); ties go to the lower index.
  using Event = std::tuple<double, int64_t>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (int64_t c = 0; c < cores; ++c) {
    const Core& core = state[static_cast<std::size_t>(c)];
    if (!core.ends.empty()) events.emplace(core.next_end(), c);
  }
  while (next < items && !events.empty()) {
    const auto [time, c] = events.top();
    events.pop();
    Core& core = state[static_cast<std::size_t>(c)];
    core.service = *core.ends.begin();
    core.ends.erase(core.ends.begin());
    core.updated = time;
    admit(core);  // the freed slot takes the next item at once
    events.emplace(core.next_end(), c);
  }
  // Once every item is out, each core works on until its own items are done: it finishes
  // after its assigned steps. Spans: the distinct finishing steps, in order.
  std::map<int64_t, int64_t> finishing;  // finishing step -> cores finishing then
  for (const Core& core : state) {
    if (core.assigned > 0) ++finishing[core.assigned];
  }
  std::vector<ActiveSpan> spans;
  int64_t active = 0;
  for (const auto& [step, count] : finishing) active += count;
  int64_t elapsed = 0;
  for (const auto& [step, count] : finishing) {
    spans.push_back({step - elapsed, active});
    elapsed = step;
    active -= count;
  }
  return spans;
}

}  // namespace polyarch::archs::simd
