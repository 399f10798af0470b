// libFuzzer harness: SCALE-Sim topology CSV text (conv and GEMM forms) -> graph IR.
#include "compiler/frontend/scalesim_csv.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  return polyarch::fuzz::parse_expecting_only_located_errors(
      data, size, [](const std::string& text) {
        polyarch::frontend::parse_scalesim_csv(text, "fuzz_topology.csv", "fuzz_topology");
      });
}
