#pragma once
// Registration glue for `kind: mimd`: parses the unit and creates its SystemC model.
#include <memory>
#include <string>

#include "archs/mimd/params.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::mimd {

class MimdUnitConfig : public UnitConfig {
 public:
  explicit MimdUnitConfig(MimdParams params) : params_(std::move(params)) {}

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "mimd"; }
  bool supports(const ir::Op& op) const override;
  sim::UnitFactory factory(double soc_clock_ghz) const override;
  nlohmann::ordered_json describe() const override;
  std::optional<double> estimate_seconds(const ir::Op& op, const MemoryContext& memory,
                                         double soc_clock_ghz) const override;
  std::optional<sim::EnergyByAction> op_energy(const sim::OpResult& op,
                                               const sim::EnergyContext& context) const override;
  std::optional<double> area_mm2(const sim::TechTable& tech) const override;
  void use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) override;
  std::optional<MappingQuery> mapping_query(const ir::Op& op, const MemoryContext& memory,
                                            double soc_clock_ghz) const override;
  const MimdParams& params() const { return params_; }

 private:
  MimdParams params_;
  std::shared_ptr<UnitSearch> decisions_;  // null: plan_op's own mappings
};

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name);

}  // namespace polyarch::archs::mimd
