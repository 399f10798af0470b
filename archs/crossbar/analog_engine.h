#pragma once
// A crossbar unit's numerics for the reference interpreter (`polyarch run --functional --arch`):
// the static-weight products the unit would run (crossbar_supports) are programmed onto its
// arrays and multiplied by AnalogMvm; per-op statistics feed DIR/functional.json.
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "archs/crossbar/analog_mvm.h"
#include "archs/crossbar/params.h"
#include "archs/soc/soc_config.h"
#include "compiler/interp/mvm_engine.h"

namespace polyarch::archs::crossbar {

class AnalogMvmEngine : public interp::MvmEngine {
 public:
  // Checks that the unit's codes fit the functional model (2 to 24 weight and input bits).
  AnalogMvmEngine(CrossbarParams params, uint64_t seed);

  bool accepts(const ir::Op& op) const override;
  std::vector<float> multiply(const interp::MvmCall& call) override;
  nlohmann::ordered_json describe() const override;
  nlohmann::ordered_json op_stats(const std::string& op_name) const override;

 private:
  struct OpStats {
    int64_t weight_sets = 0;
    int64_t arrays = 0;
    MvmCounts counts;
    double max_abs_error = 0.0;  // analog product against the fp32 product of the same inputs
    double max_abs_exact = 0.0;
    double squared_error = 0.0;
    int64_t outputs = 0;
  };

  CrossbarParams params_;
  uint64_t seed_;
  std::map<std::string, OpStats> stats_;
};

// The engine of the SoC's first crossbar unit; bad input naming the arch file when it has none.
std::unique_ptr<AnalogMvmEngine> analog_engine_for(const SocConfig& soc,
                                                   const std::string& arch_path, uint64_t seed);

}  // namespace polyarch::archs::crossbar
