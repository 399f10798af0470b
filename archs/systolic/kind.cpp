#include "archs/systolic/kind.h"

#include <algorithm>

#include "archs/systolic/cost_model.h"
#include "archs/systolic/energy.h"
#include "archs/systolic/mapping_decision.h"
#include "archs/systolic/module.h"

namespace polyarch::archs::systolic {

bool SystolicUnitConfig::supports(const ir::Op& op) const {
  ir::OpKind kind = op.kind();
  return kind == ir::OpKind::kGemm || kind == ir::OpKind::kConv2d;
}

sim::UnitFactory SystolicUnitConfig::factory(double soc_clock_ghz) const {
  return systolic_unit_factory(params_, soc_clock_ghz, {}, search_);
}

nlohmann::ordered_json SystolicUnitConfig::describe() const {
  nlohmann::ordered_json json = {{"name", params_.name},
                                 {"kind", "systolic"},
                                 {"rows", params_.rows},
                                 {"cols", params_.cols},
                                 {"dataflow", dataflow_name(params_.dataflow)},
                                 {"dtype", ir::dtype_name(params_.dtype)},
                                 {"acc_dtype", ir::dtype_name(params_.acc_dtype)},
                                 {"scalesim_compat", params_.scalesim_compat}};
  json["buffers"] = {{"ifmap_kib", params_.buffers.ifmap_kib},
                     {"filter_kib", params_.buffers.filter_kib},
                     {"ofmap_kib", params_.buffers.ofmap_kib},
                     {"double_buffered", params_.buffers.double_buffered}};
  json["clock_ghz"] = params_.clock_ghz ? nlohmann::ordered_json(*params_.clock_ghz)
                                        : nlohmann::ordered_json(nullptr);
  return json;
}

std::optional<sim::EnergyByAction> SystolicUnitConfig::op_energy(
    const sim::OpResult& op, const sim::EnergyContext& context) const {
  return systolic_op_energy(params_, op, context);
}

std::optional<double> SystolicUnitConfig::area_mm2(const sim::TechTable& tech) const {
  return systolic_area_mm2(params_, tech);
}

std::optional<double> SystolicUnitConfig::estimate_seconds(const ir::Op& op,
                                                          const MemoryContext& memory,
                                                          double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  if (search_) {
    const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
    const SystolicRun run =
        systolic_run(params_, op, clock_ghz, memory.view(clock_ghz), search_.get());
    if (!run.search.is_null()) return run.estimate_s;
  }
  const SystolicPlan plan = plan_op(params_, op);
  const double compute_s =
      static_cast<double>(plan.compute_cycles) / (params_.clock_ghz.value_or(soc_clock_ghz) * 1e9);
  const double bytes = static_cast<double>(plan.dram_read_bytes + plan.dram_write_bytes);
  const double dram_s =
      memory.dram_bytes_per_second > 0 ? bytes / memory.dram_bytes_per_second : 0.0;
  // Double-buffered folds overlap loads with compute; the first load's latency stays exposed.
  return std::max(compute_s, dram_s) + memory.dram_latency_s;
}

void SystolicUnitConfig::use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
  search_ = std::make_shared<UnitSearch>(std::move(policy), describe().dump(), mapping_energy());
}

std::optional<MappingQuery> SystolicUnitConfig::mapping_query(const ir::Op& op,
                                                             const MemoryContext& memory,
                                                             double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
  return generic_query(
      systolic_mapping_query(params_, op, clock_ghz, memory.view(clock_ghz), mapping_energy()));
}

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name) {
  return std::make_unique<SystolicUnitConfig>(parse_systolic_params(unit_reader, name));
}

}  // namespace polyarch::archs::systolic
