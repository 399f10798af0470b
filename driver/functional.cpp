#include "driver/functional.h"

#include <memory>

#include "archs/crossbar/analog_engine.h"
#include "archs/soc/soc_config.h"

namespace polyarch::driver {

interp::FunctionalResult run_functional(FunctionalRunRequest request) {
  std::unique_ptr<archs::crossbar::AnalogMvmEngine> engine;
  if (request.arch_path) {
    engine = archs::crossbar::analog_engine_for(archs::load_soc_config(*request.arch_path),
                                                request.arch_path->string(), request.seed);
    request.interpreter.mvm = engine.get();
  }
  return interp::run_functional(request.interpreter);
}

}  // namespace polyarch::driver
