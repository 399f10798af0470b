// libFuzzer harness: layer-list YAML text -> ConfigNode tree -> graph IR with inferred shapes.
#include "compiler/frontend/layer_list.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  return polyarch::fuzz::parse_expecting_only_located_errors(
      data, size, [](const std::string& text) {
        polyarch::frontend::layer_list_from_config(
            polyarch::parse_config_text(text, "fuzz_layers.yaml"), "fuzz_layers");
      });
}
