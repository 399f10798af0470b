#pragma once
// RunResult: everything a simulation produced, in one serialisable value. Reports read only
// this. Cycles are in the named unit's clock; seconds are derived with that clock.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/memory/dram_traffic.h"

namespace polyarch::sim {

// Energy (J) by action name ("mac", "sram_ifmap", "dram", "leakage", ...); each unit kind's
// README lists its actions.
using EnergyByAction = std::map<std::string, double>;

// Accesses of one on-chip buffer (SRAM) in elements.
struct BufferAccesses {
  int64_t reads = 0;
  int64_t writes = 0;
};

struct OpResult {
  std::string name;
  std::string kind;  // "gemm", "conv2d", ...
  std::string unit;
  int micro_batch = 0;  // which input of a pipelined run (0 otherwise)
  double unit_clock_ghz = 1.0;
  int64_t start_cycle = 0;
  int64_t end_cycle = 0;
  int64_t compute_cycles = 0;  // with unlimited memory bandwidth
  int64_t stall_cycles = 0;    // total_cycles - compute_cycles: waiting on memory
  int64_t total_cycles = 0;    // end_cycle - start_cycle
  int64_t macs = 0;
  // The element type the unit computed the op in, and the type the graph gave the op when the
  // unit does not compute that type and converted it (empty: the unit ran the graph's type).
  std::string dtype;
  std::string converted_from;
  // Format conversions the unit performed for the op (compiler/ir/conversions.h): elements
  // widened or narrowed, and the cycles its converting resource spent on them (counted in
  // compute_cycles); 0 when it converted none. Their energy is the "convert" action.
  int64_t converted_elements = 0;
  int64_t conversion_cycles = 0;
  double utilization = 0.0;         // macs / (peak MACs per cycle * total_cycles)
  double mapping_efficiency = 0.0;  // mean fraction of the PE array a fold occupies
  int64_t dram_bytes_read = 0;
  int64_t dram_bytes_written = 0;
  std::map<std::string, BufferAccesses> sram;  // by buffer name: ifmap, filter, ofmap
  std::optional<double> energy_j;              // null when the unit kind has no energy model
  EnergyByAction energy_by_action;
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
  // What limited the op ("compute", "l2", "dram", "noc", "latency"); empty when the unit kind
  // does not say.
  std::string bound;
  // Roofline coordinates and ceilings (ops_per_byte, attained_flops_per_s, peak_flops_per_s,
  // dram_bytes_per_s, ...); null when the unit kind does not give them.
  nlohmann::ordered_json roofline;

  double latency_s() const { return static_cast<double>(total_cycles) / (unit_clock_ghz * 1e9); }
};

// An op the run left out (`run --only-supported`): no unit of the SoC can run it. Its results
// are taken as given in memory by the ops that read them.
struct SkippedOp {
  std::string name;
  std::string kind;  // op type, e.g. "softmax"
  int64_t macs = 0;
  int64_t bytes = 0;  // bytes it would have read and written
};

// How an attention op ran: fused (one flash-style op on one unit) or unfused (QKᵀ, softmax and
// PV as three ops the scheduler places), with the estimates the choice compared; an estimate is
// absent where no unit could run that form.
struct AttentionForm {
  std::string op;
  std::string form;  // "fused" or "unfused"
  bool runnable = true;  // false: no unit runs either form (the op is refused or skipped)
  std::optional<double> fused_estimate_s;
  std::optional<double> unfused_estimate_s;
  std::string reason;
};

struct UnitResult {
  std::string name;
  std::string kind;
  double clock_ghz = 1.0;
  int64_t busy_cycles = 0;
  int64_t total_cycles = 0;  // the run's length in this unit's clock
  double utilization = 0.0;  // busy_cycles / total_cycles
  std::optional<double> energy_j;
  EnergyByAction energy_by_action;  // its ops' actions plus leakage while idle
  std::optional<double> area_mm2;   // from the technology table, when the kind models area
};

struct Provenance {
  std::string polyarch_version;
  std::string arch_sha256;
  std::string workload_sha256;
  uint64_t seed = 0;
  std::string arch_name;
  std::string workload_name;
};

struct Summary {
  int64_t total_cycles = 0;  // in the SoC clock
  double clock_ghz = 1.0;
  double latency_s = 0.0;
  std::optional<double> energy_j;
  std::optional<double> avg_power_w;  // energy_j / latency_s
  // avg_power_w at the board's input: over the board's regulator efficiency, where the arch
  // states a board (sim/energy/board_power.h); nullopt otherwise.
  std::optional<double> board_power_w;
  std::optional<double> peak_temp_c;
  EnergyByAction energy_by_action;
  std::string technology;                 // the table used, e.g. "28nm"
  std::vector<std::string> energy_notes;  // e.g. a node without a table and its stand-in
  int64_t dram_bytes_read = 0;
  int64_t dram_bytes_written = 0;
};

// Power of each floorplan block (one per unit) over fixed windows: each op's dynamic energy
// spread evenly over its run time, plus the unit's leakage.
struct PowerTrace {
  double window_s = 0.0;
  std::vector<std::string> blocks;
  std::vector<std::vector<double>> watts;  // [block][window]
};

// Temperatures of the floorplan blocks from the compact thermal model: the steady state at the
// run's average power and the temperature at the end of each power window.
// How temperature-dependent leakage converged (sim/thermal/leakage_feedback.h).
struct LeakageFeedback {
  int iterations = 0;
  bool converged = false;
  bool runaway = false;
  std::vector<double> mean_factor;  // [block]: leakage over its reference-temperature value
};

struct ThermalTrace {
  std::string floorplan;  // "generated from unit areas" or the arch file's floorplan
  std::vector<std::string> blocks;
  std::vector<double> steady_c;
  std::vector<std::vector<double>> celsius;  // [block][window]
  std::optional<LeakageFeedback> leakage;
};

// What DVFS did (sim/dvfs/dvfs_controller.h): each unit's clock steps and how the
// simulate -> temperature -> schedule rounds settled.
struct DvfsUnitTrace {
  std::string unit;
  std::vector<double> step_from_s;  // when each step starts ...
  std::vector<int> step_level;      // ... and the level it sets (0 = nominal)
  double throttled_fraction = 0.0;  // of the run's time below nominal
};

struct DvfsTrace {
  int iterations = 0;
  bool settled = false;  // the last round's schedule reproduced itself
  std::vector<DvfsUnitTrace> units;
};

// What a power cap did to the heterogeneous schedule (mapping/partition/power_budget.h): the
// schedule's planned peak under the cap (static power included) and the power trace's peak.
struct PowerCapTrace {
  double cap_w = 0.0;
  double static_w = 0.0;                // every unit's leakage, drawn all the time
  double planned_peak_w = 0.0;          // with the cap
  double uncapped_planned_peak_w = 0.0;  // the same schedule without it
  double max_op_w = 0.0;  // the most one op draws under the cap (static included)
  double planned_makespan_s = 0.0;
  double uncapped_planned_makespan_s = 0.0;
  int serialised = 0;    // ordering dependencies the cap added between ops
  int ops_over_cap = 0;  // ops over the budget on their own: they ran with nothing beside them
  std::optional<double> measured_peak_w;  // the highest window of the simulated power trace
};

// What the heterogeneous scheduler planned (mapping/partition/list_scheduler.h) and, with
// micro-batches, what the pipelined run achieved. Makespans are for the whole run.
struct UnitBaseline {
  std::string unit;
  double planned_makespan_s = 0.0;  // every op on this unit alone, one after another
};

struct PipelineTrace {
  int micro_batches = 1;
  double makespan_s = 0.0;              // simulated, all micro-batches pipelined
  double unpipelined_makespan_s = 0.0;  // simulated: one micro-batch's run, micro_batches times
  double throughput_per_s = 0.0;        // micro-batches / makespan_s
  double unpipelined_throughput_per_s = 0.0;
  // Between the first and the last micro-batch's end: the rate a long stream settles at.
  double steady_state_throughput_per_s = 0.0;
  // When an input's result is ready, from the run's start (all inputs present at t = 0),
  // averaged over the inputs; un-pipelined: one input's latency x (micro_batches + 1) / 2.
  double mean_latency_s = 0.0;
  double unpipelined_latency_s = 0.0;
  double planned_makespan_s = 0.0;
  double planned_unpipelined_makespan_s = 0.0;
};

struct ScheduleTrace {
  std::string scheduler;      // "heft" or "first_fit" (a unit gives no estimates)
  std::string transfer_path;  // "shared_dram" or "copy" (mapping/partition/transfer_cost.h)
  double hand_over_s = 0.0;
  double copy_bandwidth_gbps = 0.0;  // 0: unlimited (or not copying)
  double planned_makespan_s = 0.0;
  double planned_makespan_without_transfers_s = 0.0;  // the same plan with free transfers
  int64_t transfers = 0;        // data dependencies between ops on different units
  int64_t transfer_bytes = 0;   // the tensor bytes they hand over
  double transfer_s = 0.0;      // their delays summed (overlapping ones too)
  double transfer_copy_s = 0.0;  // of which copying bytes
  std::vector<UnitBaseline> baselines;  // the units that can run the whole graph
  std::optional<PipelineTrace> pipeline;  // with micro-batches
};

// One tensor's place in DRAM (sim/memory/tensor_allocator.h).
struct TensorAddress {
  std::string name;
  std::string role;  // weight, activation, kv_cache, output
  int64_t base_address = 0;
  int64_t bytes = 0;
};

// What the cycle-level DRAM backend counted over a run (DRAM command-clock cycles, bursts).
struct JedecMemoryCounters {
  int64_t read_bursts = 0;
  int64_t write_bursts = 0;
  int64_t row_hits = 0;
  int64_t row_misses = 0;
  int64_t row_conflicts = 0;
  int64_t refreshes = 0;
  int64_t activates = 0;
  int64_t commands_checked = 0;  // replayed through the JEDEC checker (0: not checked)
  // PIM work on the banks: column commands and the device's entries into and exits from PIM
  // mode (all zero without PIM units on the DRAM).
  int64_t pim_column_commands = 0;
  int64_t pim_internal_bytes = 0;  // moved between banks and PUs, never on the data bus
  int64_t pim_mode_entries = 0;
  int64_t pim_mode_exits = 0;
};

// The DRAM of a run: which backend simulated it, where the tensors were placed, and how much
// of the capacity they take.
struct MemoryResult {
  std::string model;  // simple | jedec
  int64_t capacity_bytes = 0;
  int64_t footprint_bytes = 0;
  std::vector<TensorAddress> tensors;
  std::optional<JedecMemoryCounters> jedec;  // jedec only
  // jedec only: traffic per unit (in unit order) and per op (in execution order), and bytes
  // per DRAM channel over time.
  std::vector<NamedDramTraffic> unit_traffic;
  std::vector<NamedDramTraffic> op_traffic;
  std::vector<ChannelBandwidth> channel_bandwidth;
  // What the DRAM description's source says that a run does not simulate (keys of a DRAMsim3
  // file read and left out), one line each.
  std::vector<std::string> notes;
};

struct RunResult {
  Summary summary;
  std::optional<MemoryResult> memory;  // null where no simulation placed the tensors
  std::optional<ScheduleTrace> schedule;  // null with one unit and one micro-batch
  std::optional<PowerCapTrace> power_cap;  // null without a power cap
  std::optional<PowerTrace> power;      // null when a unit kind has no energy model
  std::optional<ThermalTrace> thermal;  // null without a power trace or unit areas
  std::optional<DvfsTrace> dvfs;        // null without a DVFS policy
  std::vector<OpResult> ops;  // in execution order
  std::vector<UnitResult> units;
  std::vector<SkippedOp> skipped_ops;  // empty unless the run was asked to skip them
  std::vector<AttentionForm> attention_forms;  // one per attention op of the workload
  Provenance provenance;
  // The configuration simulated, after `base:` merging and defaults: the SoC's describe(), with
  // its units (null where the run did not start from a SocConfig).
  nlohmann::ordered_json arch;
  // How the op mappings were decided: {"mode": "fixed"} or {"mode": "searched", ...} (null
  // where no command said, as in a sweep point before it records its mode).
  nlohmann::ordered_json mapping_mode;
};

}  // namespace polyarch::sim
