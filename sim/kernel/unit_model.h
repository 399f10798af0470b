#pragma once
// The interface between the simulation kernel and a unit kind's SystemC model. archs/<kind>/
// implements it; the kernel creates units through factories, so sim/ never names a kind.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/op.h"
#include "sim/kernel/clock_schedule.h"
#include "sim/result.h"

namespace polyarch::sim {

class DramChannel;

// What a unit may use while it runs: the shared memory system, and the DVFS schedule of this
// unit's clock (nullptr: nominal throughout), which the kernel sets before each factory call.
struct SharedResources {
  DramChannel* dram = nullptr;
  const ClockSchedule* clock_schedule = nullptr;
};

class UnitModel {
 public:
  virtual ~UnitModel() = default;

  virtual const std::string& name() const = 0;
  virtual std::string kind() const = 0;
  virtual double clock_ghz() const = 0;
  virtual bool supports(const ir::Op& op) const = 0;

  // Runs `op` to completion. Called from the kernel's SC_THREAD for this unit and returns when
  // the op has finished in simulated time. Fills everything in OpResult except name, kind,
  // unit, start_cycle, end_cycle and total_cycles, which the kernel sets; stall_cycles is
  // filled by the kernel as total_cycles - compute_cycles.
  virtual OpResult execute(const ir::Op& op) = 0;

  // The ops the program gives this unit, each graph op once in issue order, before any runs: a
  // unit whose resources keep state from op to op (a crossbar's programmed weights) plans them
  // together. The default ignores them.
  virtual void prepare(const std::vector<const ir::Op*>& ops) { (void)ops; }
};

// Creates a unit inside the current SystemC context (during elaboration).
using UnitFactory = std::function<std::unique_ptr<UnitModel>(SharedResources&)>;

// The factory every kind's unit uses: each simulation builds a fresh `Unit` from the shared
// resources and copies of `values` (its parameters, clock, search decisions), since a SystemC
// context lives for one simulation only.
template <class Unit, class... Values>
UnitFactory unit_factory(Values... values) {
  return
      [... values = std::move(values)](SharedResources& resources) -> std::unique_ptr<UnitModel> {
        return std::make_unique<Unit>(resources, values...);
      };
}

}  // namespace polyarch::sim
