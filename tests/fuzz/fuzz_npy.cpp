// libFuzzer harness: .npy bytes (the --input files of `polyarch run --functional`) -> tensor.
// Headers, lengths and shapes are all attacker-chosen: a shape whose byte count overflows or
// disagrees with the file must be a located bad-input error, never an allocation or a read
// past the end.
#include "compiler/interp/npy_io.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  return polyarch::fuzz::parse_expecting_only_located_errors(
      data, size, [](const std::string& bytes) { polyarch::interp::parse_npy(bytes, "fuzz.npy"); });
}
