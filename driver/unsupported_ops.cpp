#include "driver/unsupported_ops.h"

#include <map>

#include "base/error.h"
#include "compiler/ir/graph_edit.h"

namespace polyarch::driver {

namespace {

std::vector<ir::NodeId> unsupported(const archs::SocConfig& soc, const ir::Graph& graph) {
  std::vector<ir::NodeId> ops;
  for (ir::NodeId id : graph.topological_ops()) {
    bool runs = false;
    for (const auto& unit : soc.units) runs = runs || unit->supports(graph.op(id));
    if (!runs) ops.push_back(id);
  }
  return ops;
}

// Why units that run the op's kind refuse it for how it stores its operands; empty when none do.
std::string storage_refusal(const archs::SocConfig& soc, const ir::Op& op) {
  std::string refusing;
  for (const auto& unit : soc.units) {
    if (!unit->reads_storage_of(op)) refusing += (refusing.empty() ? "" : ", ") + unit->name();
  }
  if (refusing.empty()) return "";
  const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
  const std::string stored =
      op.weight_format ? "weights in " + std::string(ir::dtype_name(op.weight_format->dtype))
                       : "a KV cache in " + std::string(ir::dtype_name(*attention->kv_dtype));
  return "'" + op.name + "' stores " + stored + ", which the models of " + refusing +
         " do not read (simd and pim units read weight formats, simd and mimd units KV caches)";
}

// Why units refuse the op's type (they would have to quantise it), one line per unit.
std::string type_refusals(const archs::SocConfig& soc, const ir::Op& op) {
  std::string lines;
  for (const auto& unit : soc.units) {
    if (const std::optional<std::string> refusal = unit->type_refusal(op)) {
      lines += "\n  " + *refusal;
    }
  }
  return lines;
}

}  // namespace

std::string pattern_refusal(const archs::SocConfig& soc, const ir::Op& op) {
  const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
  if (attention == nullptr || !attention->block_sparse) return "";
  ir::Op dense = op;
  std::get<ir::AttentionAttrs>(dense.attrs).block_sparse = nullptr;
  std::string refusing;
  for (const auto& unit : soc.units) {
    if (unit->supports(dense) && !unit->supports(op)) {
      refusing += (refusing.empty() ? "" : ", ") + unit->name() + " (" + unit->kind() + ")";
    }
  }
  if (refusing.empty()) return "";
  return "'" + op.name + "' has a block-sparse attention pattern, which the models of " + refusing +
         " do not run (simd and mimd units visit only its visible blocks)";
}

std::string unit_list(const archs::SocConfig& soc) {
  std::string units;
  for (const auto& unit : soc.units) {
    units += (units.empty() ? "" : ", ") + unit->name() + " (" + unit->kind() + ")";
  }
  return units.empty() ? "none" : units;
}

void refuse_unsupported_ops(const archs::SocConfig& soc, const ir::Graph& graph,
                            const std::vector<std::string>& details) {
  const std::vector<ir::NodeId> ops = unsupported(soc, graph);
  if (ops.empty()) return;
  std::map<std::string, int> by_type;
  for (ir::NodeId id : ops) ++by_type[ir::op_type_name(graph.op(id))];
  std::string counts;
  for (const auto& [type, count] : by_type) {
    counts += (counts.empty() ? "" : ", ") + std::to_string(count) + " " + type;
  }
  // The names of the first few locate them; the counts say how much is missing.
  constexpr std::size_t kNamed = 5;
  std::string names;
  for (std::size_t i = 0; i < ops.size() && i < kNamed; ++i) {
    names += (names.empty() ? "'" : ", '") + graph.op(ops[i]).name + "'";
  }
  if (ops.size() > kNamed) names += ", ...";
  std::string lines;
  for (const std::string& detail : details) lines += "\n  " + detail;
  for (ir::NodeId id : ops) {
    const std::string storage = storage_refusal(soc, graph.op(id));
    if (!storage.empty()) lines += "\n  " + storage;
    lines += type_refusals(soc, graph.op(id));
    const std::string pattern = pattern_refusal(soc, graph.op(id));
    if (!pattern.empty()) lines += "\n  " + pattern;
  }
  throw_bad_input(graph.op(ops.front()).where,
                  std::to_string(ops.size()) + " op(s) no unit supports (" + counts + "): " +
                      names + "; units: " + unit_list(soc) +
                      " (run --only-supported simulates the others and lists these)" +
                      lines);
}

std::vector<sim::SkippedOp> skip_unsupported_ops(const archs::SocConfig& soc, ir::Graph& graph) {
  const std::vector<ir::NodeId> ops = unsupported(soc, graph);
  if (ops.empty()) return {};
  if (ops.size() == graph.op_count()) {
    throw_bad_input(graph.op(ops.front()).where,
                    "no op of the workload runs on any unit (units: " + unit_list(soc) + ")");
  }
  std::vector<sim::SkippedOp> skipped;
  ir::GraphEdit edit(graph);
  for (ir::NodeId id : ops) {
    const ir::Op& op = graph.op(id);
    skipped.push_back({op.name, ir::op_type_name(op), ir::mac_count(op), ir::bytes_touched(op)});
    edit.erase_op(id);
  }
  graph = edit.apply().graph;
  return skipped;
}

}  // namespace polyarch::driver
