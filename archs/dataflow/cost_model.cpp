#include "archs/dataflow/cost_model.h"

#include <algorithm>
#include <cmath>

#include "archs/dataflow/phase_plans.h"
#include "base/checked_math.h"
#include "compiler/ir/attention_visibility.h"
#include "sim/pipeline/tile_slots.h"

namespace polyarch::archs::dataflow {

namespace {

int64_t plan_mul(int64_t a, int64_t b) { return checked_mul(a, b, "dataflow plan"); }

ir::DType dtype_of(const DataflowParams& params, const ir::Op& op) {
  return params.run_dtype(op);
}

bool is_special(const std::string& op) {
  return op == "div" || op == "exp" || op == "log" || op == "sqrt" || op == "rsqrt" || op == "tanh";
}

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// The attention's three loops as ops of their own: scores, softmax, weighted sum, over the keys
// some query sees (one range: block-sparse ops are refused, unsupported_reason). Within it
// every score is computed and the softmax masks the ones a query does not see, so a decode step
// with a sliding window reads only the window of the KV cache.
std::vector<ir::Op> attention_parts(const ir::Op& op) {
  const auto& attention = std::get<ir::AttentionAttrs>(op.attrs);
  const int64_t heads = plan_mul(attention.b, attention.h);
  const int64_t keys = ir::visible_keys(attention, 0, attention.s - 1).size();
  ir::GemmAttrs scores{attention.s, keys, attention.d, heads, false, false};
  ir::GemmAttrs weighted{attention.s, attention.d, keys, heads, false, false};
  ir::SoftmaxAttrs softmax{plan_mul(heads, attention.s), keys};
  return {ir::Op{op.name + ".qk", scores, op.dtype, op.where},
          ir::Op{op.name + ".softmax", softmax, op.dtype, op.where},
          ir::Op{op.name + ".pv", weighted, op.dtype, op.where}};
}

std::vector<LoopPhase> plan_phases(const DataflowParams& params, const ir::Op& op,
                                   MappingCache& cache, std::optional<GemmChoice> gemm_choice,
                                   const sim::MemoryView& memory) {
  const ir::DType dtype = dtype_of(params, op);
  if (op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d) {
    return plan_gemm_phases(params, cache, gemm_shape(op, dtype), op.name, gemm_choice, memory);
  }
  if (const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&op.attrs)) {
    return {plan_chain_phase(params, cache, {{elementwise->fn, elementwise->inputs}},
                             elementwise->elements, dtype)};
  }
  return {plan_row_phase(params, cache, op, dtype)};
}

// As many slots as the tile runner allows (sim/pipeline/tile_slots.h) while the largest
// step's data, that many times over, fits the scratchpads.
int64_t staging_slots(const DataflowParams& params, const DataflowPlan& plan) {
  int64_t largest = 1;
  for (const LoopPhase& phase : plan.phases) {
    for (const PlanStep& step : phase.steps) {
      largest = std::max(largest, step.dram_read_bytes + step.dram_write_bytes);
    }
  }
  const auto fit = static_cast<int64_t>(params.scratchpad_bytes() / static_cast<double>(largest));
  return std::clamp<int64_t>(fit, 2, sim::kMaxTileSlots);
}

}  // namespace

std::string unsupported_reason(const DataflowParams& params, const ir::Op& op) {
  if (op.kind() == ir::OpKind::kFrontend) return "an imported node that was not lowered";
  const ir::DType dtype = dtype_of(params, op);
  std::vector<std::string> missing;
  auto need = [&](const Dfg& dfg) {
    for (const std::string& name : missing_ops(dfg, params)) {
      if (std::find(missing.begin(), missing.end(), name) == missing.end()) missing.push_back(name);
    }
  };
  const GemmTile unit_tile{2, 1, true, dtype};
  switch (op.kind()) {
    case ir::OpKind::kGemm:
    case ir::OpKind::kConv2d:
      need(gemm_tile_dfg(params, unit_tile));
      break;
    case ir::OpKind::kAttention:
      if (std::get<ir::AttentionAttrs>(op.attrs).block_sparse) {
        return "a block-sparse attention pattern (its loops cover one range of keys)";
      }
      need(gemm_tile_dfg(params, unit_tile));
      need(row_kernel_dfg(params, attention_parts(op)[1], 1));
      break;
    case ir::OpKind::kElementwise: {
      const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attrs);
      need(elementwise_chain_dfg(params, {{attrs.fn, attrs.inputs}}));
      break;
    }
    default:
      need(row_kernel_dfg(params, op, 1));
  }
  if (missing.empty()) return "";
  return "its PEs lack the ALU op" + std::string(missing.size() > 1 ? "s " : " ") + join(missing);
}

void describe_phase(const DataflowParams& params, LoopPhase& phase, int64_t element_bytes) {
  const MappedLoop& loop = *phase.loop;
  const ModuloSchedule& schedule = loop.schedule;
  const int64_t pes = schedule.pes_used + schedule.memory_pes_used;
  phase.config_bytes = plan_mul(pes, params.config.bytes_per_pe);
  phase.config_cycles = params.config_load_cycles(pes);
  const int64_t elements = plan_mul(phase.iterations, params.pe.lanes);  // per node
  PhaseActivity& activity = phase.activity;
  for (const DfgNode& node : loop.dfg.nodes) {
    if (node.kind == NodeKind::kMac) activity.macs += elements;
    if (node.kind != NodeKind::kAlu) continue;
    (node.op == "mul"      ? activity.mul_ops
     : is_special(node.op) ? activity.special_ops
                           : activity.alu_ops) += elements;
  }
  activity.scratchpad_bytes = plan_mul(plan_mul(loop.dfg.memory_nodes(), elements), element_bytes);
  activity.network_bit_hops = plan_mul(plan_mul(schedule.link_hops, elements), element_bytes * 8);
  phase.mapping = {{"loop", phase.label},
                   {"dfg", loop.dfg.label},
                   {"dfg_nodes", static_cast<int64_t>(loop.dfg.nodes.size()) / loop.replicas},
                   {"replicas", loop.replicas},
                   {"ii", schedule.ii},
                   {"res_mii", schedule.res_mii},
                   {"rec_mii", schedule.rec_mii},
                   {"route_mii", schedule.route_mii},
                   {"buffer_mii", schedule.buffer_mii},
                   {"depth_cycles", schedule.depth_cycles},
                   {"iterations", phase.iterations},
                   {"pes_used", schedule.pes_used},
                   {"pes", params.pe.count()},
                   {"memory_pes_used", schedule.memory_pes_used},
                   {"link_hops_per_iteration", schedule.link_hops},
                   {"busiest_link_load", schedule.busiest_link_load},
                   {"placement_hops", loop.placement.total_hops},
                   {"greedy_hops", loop.placement.initial_hops},
                   {"config_cycles", phase.config_cycles},
                   {"placement", loop.picture}};
}

DataflowPlan plan_op(const DataflowParams& params, const ir::Op& op, MappingCache& cache,
                     std::optional<GemmChoice> gemm_choice, const sim::MemoryView& memory) {
  const std::string reason = unsupported_reason(params, op);
  if (!reason.empty()) {
    throw_bad_input(op.where, "dataflow unit '" + params.name + "' cannot run op '" + op.name +
                                  "' (" + ir::op_type_name(op) + "): " + reason);
  }
  DataflowPlan plan;
  plan.macs = ir::mac_count(op);
  plan.flops = ir::flop_count(op);
  const auto* copy = std::get_if<ir::CopyAttrs>(&op.attrs);
  if (copy && copy->is_view) return plan;  // a view moves nothing
  if (op.kind() == ir::OpKind::kAttention) {
    for (const ir::Op& part : attention_parts(op)) {
      for (LoopPhase& phase : plan_phases(params, part, cache, std::nullopt, memory))
        plan.phases.push_back(std::move(phase));
    }
  } else {
    plan.phases = plan_phases(params, op, cache, gemm_choice, memory);
  }
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  const LoopPhase* longest = &plan.phases.front();
  for (const LoopPhase& phase : plan.phases) {
    for (const PlanStep& step : phase.steps) {
      plan.dram_read_bytes += plan_mul(step.dram_read_bytes, step.count);
      plan.dram_write_bytes += plan_mul(step.dram_write_bytes, step.count);
    }
    plan.compute_cycles += phase.compute_cycles + phase.config_cycles;
    plan.pes_used = std::max(plan.pes_used, phase.loop->schedule.pes_used);
    if (phase.compute_cycles > longest->compute_cycles) longest = &phase;
    phases.push_back(phase.mapping);
  }
  plan.staging_slots = staging_slots(params, plan);
  plan.mapping = longest->mapping;
  plan.mapping["staging_slots"] = plan.staging_slots;
  if (plan.phases.size() > 1) plan.mapping["phases"] = phases;
  return plan;
}

int64_t phase_estimate_cycles(const DataflowParams& params, const LoopPhase& phase,
                              const sim::MemoryView& memory) {
  DataflowPlan plan;
  plan.phases = {phase};
  plan.staging_slots = staging_slots(params, plan);
  return estimate_cycles(plan, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
}

int64_t phases_estimate_cycles(const DataflowParams& params, const std::vector<LoopPhase>& phases,
                               const sim::MemoryView& memory) {
  int64_t cycles = 0;
  for (const LoopPhase& phase : phases) {
    cycles += phase_estimate_cycles(params, phase, memory) + phase.config_cycles;
  }
  return cycles;
}

int64_t estimate_cycles(const DataflowPlan& plan, double dram_bytes_per_cycle,
                        int64_t dram_latency_cycles) {
  int64_t cycles = plan.phases.empty() ? 0 : dram_latency_cycles;
  for (const LoopPhase& phase : plan.phases) {
    cycles += phase.config_cycles;
    for (const PlanStep& step : phase.steps) {
      int64_t step_cycles = step.cycles;
      if (dram_bytes_per_cycle > 0) {
        const double bytes = static_cast<double>(step.dram_read_bytes + step.dram_write_bytes);
        const double transfer = bytes / dram_bytes_per_cycle;
        const double staged = (transfer + static_cast<double>(dram_latency_cycles)) /
                              static_cast<double>(plan.staging_slots - 1);
        step_cycles =
            std::max(step_cycles, static_cast<int64_t>(std::ceil(std::max(transfer, staged))));
      }
      cycles += plan_mul(step_cycles, step.count);
    }
  }
  return cycles;
}

bool routing_bound(const DataflowPlan& plan) {
  int64_t routed = 0;
  int64_t all = 0;
  for (const LoopPhase& phase : plan.phases) {
    all += phase.compute_cycles;
    if (phase.loop && phase.loop->schedule.routing_bound) routed += phase.compute_cycles;
  }
  return routed * 2 > all;
}

}  // namespace polyarch::archs::dataflow
