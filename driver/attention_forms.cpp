#include "driver/attention_forms.h"

#include <optional>
#include <sstream>

#include "compiler/ir/graph_edit.h"
#include "compiler/lower/unfused_attention.h"
#include "driver/schedule_plan.h"
#include "driver/unsupported_ops.h"

namespace polyarch::driver {

namespace {

// The fastest unit's estimate for an op; `runs` false when no unit supports it. A supporting
// unit without an estimate leaves the time unknown.
struct BestUnit {
  bool runs = false;
  std::optional<double> seconds;
  std::string unit;
};

// The SoC's units as the scheduler prices them, so a form is judged by the estimates that will
// place its ops.
struct SocUnits {
  const archs::SocConfig* soc;
  std::vector<mapping::UnitCapability> capabilities;
  std::string listed;  // "mxu (systolic), vector (simd)"
};

BestUnit best_unit(const SocUnits& units, const ir::Op& op) {
  BestUnit best;
  for (const mapping::UnitCapability& unit : units.capabilities) {
    if (!unit.supports(op)) continue;
    const std::optional<double> seconds = unit.estimate_seconds(op);
    if (!best.runs || (seconds && (!best.seconds || *seconds < *best.seconds))) {
      best.seconds = seconds;
      best.unit = unit.name;
    }
    best.runs = true;
  }
  return best;
}

std::string units_refusing(const SocUnits& units, const ir::Op& op) {
  return "no unit runs " + std::string(ir::op_type_name(op)) + " '" + op.name + "' (units: " +
         units.listed + ")";
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text.precision(4);
  text << seconds << " s";
  return text.str();
}

struct Unfused {
  bool runs = true;
  std::optional<double> seconds = 0.0;
  std::string placement;  // "qk on mxu, softmax on vector, pv on mxu"
  std::string refusal;    // why not, when it cannot run
};

Unfused estimate_unfused(const SocUnits& units, const ir::Op& attention) {
  Unfused unfused;
  if (const auto kv = std::get<ir::AttentionAttrs>(attention.attrs).kv_dtype) {
    // Kernels that read a quantised cache dequantise it as they stream it (vLLM's and
    // FlashInfer's decode kernels); the unfused GEMMs would read K and V as activations.
    unfused.runs = false;
    unfused.refusal = "its KV cache is stored in " + std::string(ir::dtype_name(*kv)) +
                      ", which only a fused kernel reads as stored";
    unfused.seconds.reset();
    return unfused;
  }
  const lower::UnfusedAttention parts = lower::unfused_attention_ops(attention);
  for (const ir::Op* part : {&parts.scores, &parts.softmax, &parts.context}) {
    const BestUnit best = best_unit(units, *part);
    if (!best.runs) {
      unfused.runs = false;
      unfused.refusal += (unfused.refusal.empty() ? "" : "; ") + units_refusing(units, *part);
      continue;
    }
    const std::string suffix = part->name.substr(attention.name.size() + 1);
    unfused.placement += (unfused.placement.empty() ? "" : ", ") + suffix + " on " + best.unit;
    if (best.seconds && unfused.seconds) {
      *unfused.seconds += *best.seconds;
    } else {
      unfused.seconds.reset();
    }
  }
  if (!unfused.runs) unfused.seconds.reset();
  return unfused;
}

sim::AttentionForm decide(const SocUnits& units, const ir::Op& attention, bool search_forms) {
  const BestUnit fused = best_unit(units, attention);
  const Unfused unfused = estimate_unfused(units, attention);
  sim::AttentionForm form;
  form.op = attention.name;
  if (fused.runs) form.fused_estimate_s = fused.seconds;
  if (unfused.runs) form.unfused_estimate_s = unfused.seconds;
  if (!fused.runs && !unfused.runs) {
    // Left whole: the caller refuses or skips it with the other ops no unit runs.
    form.form = "fused";
    form.runnable = false;
    form.reason = "runs on no unit: fused, " + units_refusing(units, attention) + "; unfused, " +
                  unfused.refusal;
    return form;
  }
  if (!unfused.runs) {
    form.form = "fused";
    form.reason = "fused on " + fused.unit + "; unfused cannot run: " + unfused.refusal;
  } else if (!fused.runs) {
    form.form = "unfused";
    const std::string pattern = pattern_refusal(*units.soc, attention);
    form.reason = unfused.placement + "; no unit runs attention fused" +
                  (pattern.empty() ? "" : " (" + pattern + ")");
  } else if (!search_forms) {
    form.form = "fused";
    form.reason = "fused on " + fused.unit + " (fixed mappings keep attention fused)";
  } else if (fused.seconds && unfused.seconds && *unfused.seconds < *fused.seconds) {
    form.form = "unfused";
    form.reason = unfused.placement + ": " + seconds_text(*unfused.seconds) +
                  " estimated against " + seconds_text(*fused.seconds) + " fused on " +
                  fused.unit;
  } else {
    form.form = "fused";
    form.reason = "fused on " + fused.unit +
                  (fused.seconds && unfused.seconds
                       ? ": " + seconds_text(*fused.seconds) + " estimated against " +
                             seconds_text(*unfused.seconds) + " unfused (" + unfused.placement +
                             ")"
                       : " (a unit gives no estimate to compare the forms by)");
  }
  return form;
}

std::string estimate_text(const std::optional<double>& seconds) {
  return seconds ? seconds_text(*seconds) : "-";
}

}  // namespace

std::string attention_forms_text(const std::vector<sim::AttentionForm>& forms) {
  if (forms.empty()) return "";
  std::string text = "attention forms:\n";
  for (const sim::AttentionForm& form : forms) {
    text += "  " + form.op + ": " + (form.runnable ? form.form : "runs on no unit") + " (fused " +
            estimate_text(form.fused_estimate_s) + ", unfused " +
            estimate_text(form.unfused_estimate_s) + ")\n    reason: " + form.reason + "\n";
  }
  return text + "\n";
}

std::vector<sim::AttentionForm> choose_attention_forms(const archs::SocConfig& soc,
                                                       ir::Graph& graph, bool search_forms) {
  std::vector<sim::AttentionForm> forms;
  std::optional<SocUnits> units;
  std::optional<ir::GraphEdit> edit;
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::Op& op = graph.op(id);
    if (op.kind() != ir::OpKind::kAttention) continue;
    if (!units) units = SocUnits{&soc, unit_capabilities(soc), unit_list(soc)};
    forms.push_back(decide(*units, op, search_forms));
    if (forms.back().form != "unfused") continue;
    if (!edit) edit.emplace(graph);
    edit->expand_op(id, lower::unfused_attention_expansion(graph, id));
  }
  if (edit) graph = edit->apply().graph;
  return forms;
}

}  // namespace polyarch::driver
