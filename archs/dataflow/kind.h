#pragma once
// Registration glue for `kind: dataflow`: parses the unit, answers capability and analytical
// estimates for the scheduler, and creates its SystemC model. The mapping cache is shared by
// the estimates and every model the unit's factory makes.
#include <memory>
#include <string>

#include "archs/dataflow/mapper.h"
#include "archs/dataflow/params.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::dataflow {

class DataflowUnitConfig : public UnitConfig {
 public:
  explicit DataflowUnitConfig(DataflowParams params)
      : params_(std::move(params)), cache_(std::make_shared<MappingCache>()) {}

  const std::string& name() const override { return params_.name; }
  std::string kind() const override { return "dataflow"; }
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
  const DataflowParams& params() const { return params_; }
  MappingCache& cache() const { return *cache_; }

 private:
  DataflowParams params_;
  std::shared_ptr<MappingCache> cache_;
  std::shared_ptr<UnitSearch> decisions_;  // null: plan_op's own mappings
};

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name);

}  // namespace polyarch::archs::dataflow
