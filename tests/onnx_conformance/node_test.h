#pragma once
// One test of ONNX's backend node suite (a directory holding model.onnx and
// test_data_set_0/{input,output}_N.pb) run through `polyarch run --functional` as a user would:
// the inputs written as .npy files, the program run, its outputs held to the expected ones.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyarch::onnx_conformance {

enum class Status {
  kPass,     // ran, and every output matches
  kWrong,    // ran, and an output's shape or values differ
  kRefused,  // the program exited with an error
  kSkipped,  // the harness cannot feed it: a sequence, map or optional input has no .npy form
};

std::string_view status_name(Status status);
std::optional<Status> parse_status(std::string_view name);

struct Outcome {
  Status status = Status::kPass;
  // Refused: the first line of the program's message, without the program's prefix and with
  // the test's own paths left out, so that it reads the same on every machine. Wrong: which
  // output differs and how. Skipped: why.
  std::string reason;
};

// The test directories under `root` (each holding a model.onnx), sorted by name.
std::vector<std::filesystem::path> node_test_dirs(const std::filesystem::path& root);

// Runs the program `polyarch` on the test in `test_dir`, writing its files under `scratch` (made
// and removed here).
Outcome run_node_test(const std::filesystem::path& test_dir, const std::filesystem::path& polyarch,
                      const std::filesystem::path& scratch);

}  // namespace polyarch::onnx_conformance
