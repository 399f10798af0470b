#pragma once
// Registration glue for `kind: systolic`: parses the unit and creates its SystemC model.
#include <memory>
#include <string>

#include "archs/systolic/params.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::systolic {

class SystolicUnitConfig : public UnitConfig {
 public:
  explicit SystolicUnitConfig(SystolicParams params) : params_(std::move(params)) {}

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "systolic"; }
  bool supports(const ir::Op& op) const override;
  sim::UnitFactory factory(double soc_clock_ghz) const override;
  nlohmann::ordered_json describe() const override;
  std::optional<sim::EnergyByAction> op_energy(const sim::OpResult& op,
                                               const sim::EnergyContext& context) const override;
  std::optional<double> area_mm2(const sim::TechTable& tech) const override;
  std::optional<double> estimate_seconds(const ir::Op& op, const MemoryContext& memory,
                                         double soc_clock_ghz) const override;
  void use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) override;
  std::optional<MappingQuery> mapping_query(const ir::Op& op, const MemoryContext& memory,
                                            double soc_clock_ghz) const override;
  const SystolicParams& params() const { return params_; }

 private:
  SystolicParams params_;
  std::shared_ptr<UnitSearch> search_;  // null: the unit's own configuration for every op
};

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name);

}  // namespace polyarch::archs::systolic
