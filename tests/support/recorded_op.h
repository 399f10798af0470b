#pragma once
// An op result as a kind's model leaves it for the energy model: named, on a unit, its mapping
// holding what the plan described and then what `record` appends (a kind's record_activity).
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace polyarch::test_support {

template <typename Record>
sim::OpResult recorded_op(std::string name, std::string unit, nlohmann::ordered_json described,
                          Record&& record) {
  sim::OpResult op;
  op.name = std::move(name);
  op.unit = std::move(unit);
  op.mapping = std::move(described);
  record(op.mapping);
  return op;
}

}  // namespace polyarch::test_support
