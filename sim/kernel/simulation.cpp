#include "sim/kernel/simulation.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <systemc>

#include "base/error.h"
#include "sim/kernel/sanitizer_stack.h"
#include "sim/kernel/unit_clock.h"
#include "sim/memory/dram_channel.h"
#include "sim/memory/memory_result.h"
#include "sim/memory/tensor_allocator.h"

namespace polyarch::sim {

namespace {

// Owns one SystemC context for the duration of a simulate() call. Everything SystemC-side
// (modules, events) must be destroyed while this context is still current, so objects that
// hold them are declared after a ContextScope and die before it.
class ContextScope {
 public:
  ContextScope()
      : previous_current_(sc_core::sc_curr_simcontext),
        previous_default_(sc_core::sc_default_global_context) {
    context_ = new sc_core::sc_simcontext();
    sc_core::sc_curr_simcontext = context_;
    sc_core::sc_default_global_context = context_;
    // sc_stop() is how a failing unit ends the run; its "stopped by user" note is not news.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
  }
  // Restores what was there before (normally nullptr for both): a caller that touched SystemC
  // outside simulate() keeps its own context.
  ~ContextScope() {
    delete context_;
    sc_core::sc_curr_simcontext = previous_current_;
    sc_core::sc_default_global_context = previous_default_;
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  sc_core::sc_simcontext* previous_current_;
  sc_core::sc_simcontext* previous_default_;
  sc_core::sc_simcontext* context_ = nullptr;
};

// What the kernel records of each program op while it runs.
struct OpRecord {
  bool done = false;
  sc_core::sc_time start;
  sc_core::sc_time end;
  OpResult result;
  DramTraffic dram_traffic;  // what the unit's DRAM requesters moved while the op ran (jedec)
};

// A unit's DRAM traffic so far: that of every requester it registered.
DramTraffic unit_dram_traffic(const DramChannel& dram, const std::vector<int>& initiators) {
  DramTraffic traffic;
  for (int initiator : initiators) traffic += dram.traffic(initiator);
  return traffic;
}

// The state shared by all dispatchers of one run.
struct KernelState {
  const SystemSpec& system;
  const mapping::Program& program;
  const ir::Graph& graph;
  const TensorAllocation& allocation;
  DramChannel& dram;
  std::vector<std::unique_ptr<UnitModel>> units;
  std::vector<std::vector<int>> unit_initiators;  // the DRAM initiators each unit registered
  std::vector<UnitClock> clocks;
  std::vector<OpRecord> records;
  std::vector<std::unique_ptr<sc_core::sc_event>> op_finished;  // one per program op
  std::exception_ptr error;
};

// Executes one unit's ops in program order: each waits for its deps, starts on the unit's next
// clock edge (a unit's controller acts on edges), and runs to completion in the unit model.
class Dispatcher : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Dispatcher);
  Dispatcher(sc_core::sc_module_name name, KernelState& state, int unit_index)
      : sc_core::sc_module(name), state_(state), unit_index_(unit_index) {
    SC_THREAD(run);
  }

 private:
  void run() {
    clear_stale_coroutine_stack_poison();
    try {
      for (int op_index : state_.program.per_unit[unit_index_]) run_op(op_index);
    } catch (...) {
      // A SystemC thread must not throw; keep the first error and end the run. simulate()
      // rethrows it once sc_start() has returned.
      if (!state_.error) state_.error = std::current_exception();
      sc_core::sc_stop();
    }
  }

  void run_op(int op_index) {
    const mapping::ProgramOp& program_op = state_.program.ops[op_index];
    // Each dep's result arrives its transfer delay after it finished (the cross-unit hand-over
    // and copy the scheduler planned, mapping/partition/transfer_cost.h).
    sc_core::sc_time data_ready = sc_core::SC_ZERO_TIME;
    for (std::size_t position = 0; position < program_op.deps.size(); ++position) {
      const int dep = program_op.deps[position];
      while (!state_.records[dep].done) sc_core::wait(*state_.op_finished[dep]);
      const double delay_s =
          position < program_op.dep_delay_s.size() ? program_op.dep_delay_s[position] : 0.0;
      data_ready = std::max(data_ready,
                            state_.records[dep].end + sc_core::sc_time(delay_s, sc_core::SC_SEC));
    }
    if (data_ready > sc_core::sc_time_stamp()) sc_core::wait(data_ready - sc_core::sc_time_stamp());
    UnitModel& unit = *state_.units[unit_index_];
    const UnitClock& clock = state_.clocks[unit_index_];
    const ir::Op& op = state_.graph.op(program_op.node);
    if (!unit.supports(op)) {
      throw_bad_input(
          op.where, "op '" + op.name + "' (" + std::string(ir::op_kind_name(op.kind())) +
                        ") was assigned to unit '" + unit.name() + "', which does not support it");
    }
    const int64_t start_cycle = clock.cycles_at_or_after(sc_core::sc_time_stamp());
    const sc_core::sc_time edge = clock.time_of(start_cycle);
    if (edge > sc_core::sc_time_stamp()) sc_core::wait(edge - sc_core::sc_time_stamp());

    // The op's DRAM traffic walks its own tensors.
    const OpRanges ranges = state_.allocation.ranges_of(program_op.node);
    for (int initiator : state_.unit_initiators[unit_index_])
      state_.dram.begin_op(initiator, ranges);

    OpRecord& record = state_.records[op_index];
    record.start = sc_core::sc_time_stamp();
    const std::vector<int>& initiators = state_.unit_initiators[unit_index_];
    const DramTraffic traffic_before = unit_dram_traffic(state_.dram, initiators);
    OpResult result = unit.execute(op);
    record.end = sc_core::sc_time_stamp();
    record.dram_traffic = unit_dram_traffic(state_.dram, initiators).since(traffic_before);

    // In a pipelined program each op runs once per micro-batch: `name#k` tells them apart.
    result.name = state_.program.micro_batches > 1
                      ? op.name + "#" + std::to_string(program_op.micro_batch)
                      : op.name;
    result.kind = std::string(ir::op_kind_name(op.kind()));
    result.unit = state_.system.units[unit_index_].name;
    result.micro_batch = program_op.micro_batch;
    result.unit_clock_ghz = clock.clock_ghz();
    result.start_cycle = start_cycle;
    result.end_cycle = std::max(start_cycle, clock.cycles_at_or_after(record.end));
    result.total_cycles = result.end_cycle - result.start_cycle;
    // A unit whose model finishes earlier than its own compute estimate (it never should) keeps
    // its compute count; stall is what memory added, never negative.
    result.stall_cycles = std::max<int64_t>(0, result.total_cycles - result.compute_cycles);
    record.result = std::move(result);
    record.done = true;
    state_.op_finished[op_index]->notify();
  }

  KernelState& state_;
  int unit_index_;
};

// Checks the program refers only to ops, units and deps that exist, and that every op is
// issued exactly once by the unit it is assigned to: anything else would hang the run.
void validate_program(const SystemSpec& system, const mapping::Program& program) {
  const int op_count = static_cast<int>(program.ops.size());
  const int unit_count = static_cast<int>(system.units.size());
  if (static_cast<int>(program.per_unit.size()) > unit_count) {
    throw_runtime({}, "program has ops for " + std::to_string(program.per_unit.size()) +
                          " units, the system has " + std::to_string(unit_count));
  }
  std::vector<int> issued(op_count, 0);
  for (int unit = 0; unit < static_cast<int>(program.per_unit.size()); ++unit) {
    for (int op_index : program.per_unit[unit]) {
      if (op_index < 0 || op_index >= op_count || program.ops[op_index].unit_index != unit) {
        throw_runtime({}, "program issues op " + std::to_string(op_index) + " on unit " +
                              std::to_string(unit) + ", which it is not assigned to");
      }
      ++issued[op_index];
    }
  }
  for (int op_index = 0; op_index < op_count; ++op_index) {
    const mapping::ProgramOp& op = program.ops[op_index];
    if (op.unit_index < 0 || op.unit_index >= unit_count || issued[op_index] != 1) {
      throw_runtime({}, "program op " + std::to_string(op_index) +
                            " is not issued exactly once by an existing unit");
    }
    for (int dep : op.deps) {
      if (dep < 0 || dep >= op_count || dep == op_index) {
        throw_runtime({}, "program op " + std::to_string(op_index) + " has invalid dep " +
                              std::to_string(dep));
      }
    }
  }
}

// Execution order: by start time; program order breaks ties, so reports are deterministic.
std::vector<int> execution_order(const KernelState& state) {
  std::vector<int> order(state.records.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return state.records[a].start < state.records[b].start; });
  return order;
}

// jedec: the DRAM traffic of each op (execution order) and each unit, and each channel's
// bytes over time.
void add_dram_traffic(const KernelState& state, const DramChannel& dram, MemoryResult& memory) {
  if (dram.jedec() == nullptr) return;
  std::vector<double> unit_busy_s(state.units.size(), 0.0);
  for (int op_index : execution_order(state)) {
    const OpRecord& record = state.records[static_cast<size_t>(op_index)];
    const double busy_s = (record.end - record.start).to_seconds();
    unit_busy_s[static_cast<size_t>(state.program.ops[op_index].unit_index)] += busy_s;
    memory.op_traffic.push_back({.name = record.result.name,
                                 .unit = record.result.unit,
                                 .busy_s = busy_s,
                                 .traffic = record.dram_traffic});
  }
  for (std::size_t unit = 0; unit < state.units.size(); ++unit) {
    const std::string& name = state.system.units[unit].name;
    memory.unit_traffic.push_back(
        {.name = name,
         .unit = name,
         .busy_s = unit_busy_s[unit],
         .traffic = unit_dram_traffic(dram, state.unit_initiators[unit])});
  }
  memory.channel_bandwidth = dram.channel_bandwidth();
}

RunResult collect_results(const KernelState& state, const DramChannel& dram) {
  RunResult run;
  sc_core::sc_time run_end = sc_core::SC_ZERO_TIME;
  for (const OpRecord& record : state.records) run_end = std::max(run_end, record.end);
  for (int op_index : execution_order(state)) run.ops.push_back(state.records[op_index].result);

  for (std::size_t unit = 0; unit < state.units.size(); ++unit) {
    UnitResult unit_result;
    unit_result.name = state.system.units[unit].name;
    unit_result.kind = state.system.units[unit].kind;
    unit_result.clock_ghz = state.clocks[unit].clock_ghz();
    unit_result.total_cycles = state.clocks[unit].cycles_at_or_after(run_end);
    for (std::size_t op_index = 0; op_index < state.records.size(); ++op_index) {
      if (state.program.ops[op_index].unit_index == static_cast<int>(unit)) {
        unit_result.busy_cycles += state.records[op_index].result.total_cycles;
      }
    }
    unit_result.utilization = unit_result.total_cycles > 0
                                  ? static_cast<double>(unit_result.busy_cycles) /
                                        static_cast<double>(unit_result.total_cycles)
                                  : 0.0;
    run.units.push_back(std::move(unit_result));
  }

  const UnitClock soc_clock(state.system.clock_ghz);
  run.summary.clock_ghz = state.system.clock_ghz;
  run.summary.total_cycles = soc_clock.cycles_at_or_after(run_end);
  run.summary.latency_s = run_end.to_seconds();
  run.summary.dram_bytes_read = dram.total_bytes_read();
  run.summary.dram_bytes_written = dram.total_bytes_written();
  return run;
}

// Module names must be unique and free of SystemC's hierarchy separator.
std::string module_name(const std::string& prefix, const std::string& unit_name,
                        std::size_t index) {
  std::string name = prefix + "_" + std::to_string(index) + "_";
  for (char c : unit_name) name += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return name;
}

// The type each op the program places computes in on its unit, for ops that name none.
ir::UnitDType unit_dtypes(const SystemSpec& system, const mapping::Program& program,
                          const ir::Graph& graph) {
  auto placed = std::make_shared<std::map<ir::NodeId, int>>();
  for (const mapping::ProgramOp& op : program.ops) placed->emplace(op.node, op.unit_index);
  return [&system, &graph, placed](ir::NodeId op) -> std::optional<ir::DType> {
    const auto found = placed->find(op);
    if (found == placed->end()) return std::nullopt;
    const UnitSpec& unit = system.units.at(static_cast<std::size_t>(found->second));
    if (!unit.run_dtype) return std::nullopt;
    return unit.run_dtype(graph.op(op));
  };
}

}  // namespace

RunResult simulate(const SystemSpec& system, const mapping::Program& program,
                   const ir::Graph& graph) {
  validate_program(system, program);
  const TensorAllocation allocation(graph, unit_dtypes(system, program, graph));
  require_fits(system.dram, allocation, graph.name());
  ContextScope context;
  // Declaration order is destruction order reversed: dispatchers, then units, then DRAM and
  // the events all go before the context does.
  DramChannel dram("dram", system.dram, system.interconnect, system.clock_ghz);
  KernelState state{system, program, graph, allocation, dram, {}, {}, {}, {}, {}, nullptr};
  SharedResources resources{&dram};
  for (const UnitSpec& unit : system.units) {
    if (!unit.make) throw_runtime({}, "unit '" + unit.name + "' has no model factory");
    auto schedule = system.clock_schedules.find(unit.name);
    resources.clock_schedule =
        schedule == system.clock_schedules.end() ? nullptr : &schedule->second;
    const int first_initiator = dram.initiator_count();
    std::unique_ptr<UnitModel> model = unit.make(resources);
    std::vector<int>& initiators = state.unit_initiators.emplace_back();
    for (int id = first_initiator; id < dram.initiator_count(); ++id) initiators.push_back(id);
    if (!model) throw_runtime({}, "unit '" + unit.name + "': factory returned no model");
    // Op and unit cycles in results count the nominal clock, so that cycles / clock_ghz stays
    // the time they took under DVFS too; the unit's own clock follows its schedule.
    state.clocks.emplace_back(model->clock_ghz());
    state.units.push_back(std::move(model));
  }
  for (std::size_t unit = 0; unit < program.per_unit.size() && unit < state.units.size(); ++unit) {
    std::vector<const ir::Op*> ops;
    std::set<ir::NodeId> seen;
    for (const int op_index : program.per_unit[unit]) {
      const ir::NodeId node = program.ops[op_index].node;
      if (seen.insert(node).second) ops.push_back(&graph.op(node));
    }
    state.units[unit]->prepare(ops);
  }
  state.records.resize(program.ops.size());
  for (std::size_t i = 0; i < program.ops.size(); ++i) {
    state.op_finished.push_back(std::make_unique<sc_core::sc_event>());
  }
  std::vector<std::unique_ptr<Dispatcher>> dispatchers;
  for (std::size_t unit = 0; unit < program.per_unit.size(); ++unit) {
    dispatchers.push_back(
        std::make_unique<Dispatcher>(module_name("dispatch", system.units[unit].name, unit).c_str(),
                                     state, static_cast<int>(unit)));
  }

  try {
    sc_core::sc_start();
  } catch (const Error&) {
    resync_sanitizer_stack();
    throw;
  } catch (const std::exception& e) {
    resync_sanitizer_stack();
    throw_runtime({}, std::string("SystemC: ") + e.what());
  }
  resync_sanitizer_stack();
  if (state.error) std::rethrow_exception(state.error);
  for (std::size_t op_index = 0; op_index < state.records.size(); ++op_index) {
    if (!state.records[op_index].done) {
      const ir::Op& op = graph.op(program.ops[op_index].node);
      throw_runtime(
          op.where,
          "op '" + op.name + "' never finished: its deps form a cycle or a unit model deadlocked");
    }
  }
  RunResult result = collect_results(state, dram);
  result.memory = memory_result(system.dram, allocation, dram);
  add_dram_traffic(state, dram, *result.memory);
  return result;
}

}  // namespace polyarch::sim
