// libFuzzer harness: sweep YAML text -> SweepSpec -> planned points (expansion, constraint
// expressions, every point's arch validated). The input poses as a file in configs/sweeps/ so
// that `base:` and `workloads:` written like the shipped sweep resolve to real files.
#include "sweep/expand.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  return polyarch::fuzz::parse_expecting_only_located_errors(
      data, size, [](const std::string& text) {
        const std::string file = POLYARCH_SOURCE_DIR "/configs/sweeps/fuzz_sweep.yaml";
        polyarch::sweep::plan_sweep(
            polyarch::sweep::parse_sweep_spec(polyarch::parse_config_text(text, file), file));
      });
}
