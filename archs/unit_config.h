#pragma once
// A parsed unit of any kind, as the SoC holds it. Each kind's folder implements one subclass and
// registers its parser in archs/registry.cpp.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "compiler/ir/op.h"
#include "mapping/cache/unit_decisions.h"
#include "sim/energy/energy_context.h"
#include "sim/kernel/unit_model.h"
#include "sim/result.h"

namespace polyarch::archs {

// The memory behind every unit, as the analytical estimates see it.
struct MemoryContext {
  double dram_bytes_per_second = 0;  // sustained; 0 = unlimited
  double dram_latency_s = 0;
};

class UnitConfig {
 public:
  virtual ~UnitConfig() = default;

  virtual const std::string& name() const = 0;
  virtual std::string kind() const = 0;
  virtual bool supports(const ir::Op& op) const = 0;
  // A factory for the SystemC model; `soc_clock_ghz` applies where the unit has no own clock.
  virtual sim::UnitFactory factory(double soc_clock_ghz) const = 0;
  // The unit's parameters as JSON, for reports and `validate`.
  virtual nlohmann::ordered_json describe() const = 0;

  // Energy (J) by action of one op this unit ran, from the op's activity counts; leakage over
  // the op's latency included. A kind without an energy model returns nullopt.
  virtual std::optional<sim::EnergyByAction> op_energy(const sim::OpResult& op,
                                                       const sim::EnergyContext& context) const {
    (void)op;
    (void)context;
    return std::nullopt;
  }
  // The op's latency on this unit by its analytical model, without simulation (for the list
  // scheduler); nullopt where the kind gives no estimate. `soc_clock_ghz` applies where the unit
  // has no own clock.
  virtual std::optional<double> estimate_seconds(const ir::Op& op, const MemoryContext& memory,
                                                 double soc_clock_ghz) const {
    (void)op;
    (void)memory;
    (void)soc_clock_ghz;
    return std::nullopt;
  }
  // Silicon area (mm^2) and the leakage power (W) it draws while idle; nullopt without a model.
  virtual std::optional<double> area_mm2(const sim::TechTable& tech) const {
    (void)tech;
    return std::nullopt;
  }
  // `polyarch run --search S`: from now on, ops whose mapping the kind exposes as a space
  // (mapping/space/) run the mapping the policy's searcher picks, decided once per op shape and
  // cached. A kind without a space ignores it and keeps its own choice.
  virtual void use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
    (void)policy;
  }
};

}  // namespace polyarch::archs
