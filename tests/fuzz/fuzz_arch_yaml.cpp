// libFuzzer harness: arch YAML text -> ConfigNode tree -> validated SocConfig (every unit
// kind's parameter parser included). `base:` includes are not followed: they need files.
#include "archs/soc/soc_config.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  return polyarch::fuzz::parse_expecting_only_located_errors(
      data, size, [](const std::string& text) {
        polyarch::archs::parse_soc_config(polyarch::parse_config_text(text, "fuzz_arch.yaml"));
      });
}
