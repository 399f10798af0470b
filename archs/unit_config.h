#pragma once
// A parsed unit of any kind, as the SoC holds it. Each kind's folder implements one subclass and
// registers its parser in archs/registry.cpp.
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/ir/op.h"
#include "sim/kernel/unit_model.h"

namespace polyarch::archs {

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
};

}  // namespace polyarch::archs
