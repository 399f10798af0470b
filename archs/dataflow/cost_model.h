#pragma once
// How an op runs on a dataflow fabric: one or more loop phases (attention: QK^T, softmax, PV),
// each a placed, routed and modulo-scheduled DFG replicated over the fabric and run as a
// sequence of steps (GEMM: one step per round of weight tiles; streams: scratchpad-sized
// chunks) with their DRAM traffic. Per phase:
//   cycles = reconfiguration (when its configuration is not resident) + sum over steps of
//            (fill + II x (iterations - 1) + drain), fill + drain = the schedule's depth,
// and the SystemC model streams the steps against the shared DRAM, so DRAM bandwidth and other
// units' traffic limit it. Equations: archs/dataflow/README.md.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "archs/dataflow/activity.h"
#include "archs/dataflow/mapper.h"
#include "archs/dataflow/params.h"
#include "compiler/ir/op.h"
#include "sim/memory/memory_view.h"

namespace polyarch::archs::dataflow {

struct PlanStep {
  int64_t cycles = 0;
  int64_t dram_read_bytes = 0;
  int64_t dram_write_bytes = 0;
  int64_t count = 1;  // identical steps back to back
};

struct LoopPhase {
  std::string label;
  std::shared_ptr<const MappedLoop> loop;
  int64_t iterations = 0;     // per replica, all steps together
  int64_t config_cycles = 0;  // loading the configuration when it is not resident
  int64_t config_bytes = 0;
  std::vector<PlanStep> steps;
  int64_t compute_cycles = 0;  // the steps' cycles, without reconfiguration
  PhaseActivity activity;      // for energy (activity.h)
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
};

struct DataflowPlan {
  std::vector<LoopPhase> phases;
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t dram_read_bytes = 0;
  int64_t dram_write_bytes = 0;
  int64_t compute_cycles = 0;  // every phase's steps plus a cold reconfiguration of each
  int64_t pes_used = 0;        // the most any phase uses
  // Steps whose operands may be in flight at once: the memory PEs keep many DRAM requests
  // outstanding, as far as the scratchpads hold the steps' data.
  int64_t staging_slots = 2;
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
};

// Why the fabric cannot run `op` (ALU ops it lacks, a frontend op); empty when it can.
std::string unsupported_reason(const DataflowParams& params, const ir::Op& op);

// A GEMM's or convolution's tiling on the fabric: the weight tile (k_unroll x n_unroll MACs),
// whether it is replicated to fill the fabric or half as often (less routing congestion),
// whether rows of A run in blocks that stay on chip (A read once, B once per block) or whole,
// the orientation (C = A B, B's tile stationary and A's rows streaming, or swapped, C^T = B^T
// A^T: A's tile stationary and B's columns streaming), and the form: the weight-stationary
// tile, or dot products with the lanes along K (k_unroll 1; n_unroll columns per iteration;
// for GEMMs whose rows or columns cannot fill the lanes: gemm_plan.cpp, dot_plan.cpp).
struct GemmChoice {
  int64_t k_unroll = 1;
  int64_t n_unroll = 1;
  bool half_replicas = false;
  bool row_blocks = false;
  bool swapped = false;
  bool dot = false;
  bool operator==(const GemmChoice&) const = default;
};

// `gemm_choice` forces a GEMM's or convolution's tiling (one the fabric can hold); other ops
// ignore it. Without it, the fastest placed tiling, its rows blocked when that is faster with
// `memory` in front of the fabric (default: unlimited DRAM, so never).
DataflowPlan plan_op(const DataflowParams& params, const ir::Op& op, MappingCache& cache,
                     std::optional<GemmChoice> gemm_choice = std::nullopt,
                     const sim::MemoryView& memory = {});

// Whether routing bounds the fabric's work: phases whose interval routing set (RouteMII, links
// or route-through moves, ModuloSchedule::routing_bound) take most of the compute cycles.
bool routing_bound(const DataflowPlan& plan);

// The plan's cycles with DRAM at `dram_bytes_per_cycle` (<= 0: unlimited): per step the largest
// of compute, transfer, and latency plus transfer shared by the steps staged ahead
// (staging_slots - 1), plus one DRAM latency, plus cold reconfigurations.
int64_t estimate_cycles(const DataflowPlan& plan, double dram_bytes_per_cycle,
                        int64_t dram_latency_cycles);

}  // namespace polyarch::archs::dataflow
