#include "tests/onnx_conformance/node_test.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

#include "compiler/interp/functional_run.h"
#include "compiler/interp/npy_io.h"
#include "tests/onnx_conformance/compare_outputs.h"
#include "tests/onnx_conformance/tensor_file.h"
#include "tests/support/run_polyarch.h"

namespace polyarch::onnx_conformance {

namespace fs = std::filesystem;

namespace {

// A hung run must not stall the suite; the slowest node test takes well under a second.
constexpr int kRunTimeoutSeconds = 60;

onnx::ModelProto read_model(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) throw std::runtime_error("cannot parse " + path.string());
  return model;
}

// The graph inputs a caller feeds: those no initializer gives a value.
std::vector<const onnx::ValueInfoProto*> fed_inputs(const onnx::GraphProto& graph) {
  std::set<std::string> initialized;
  for (const onnx::TensorProto& initializer : graph.initializer()) {
    initialized.insert(initializer.name());
  }
  std::vector<const onnx::ValueInfoProto*> inputs;
  for (const onnx::ValueInfoProto& input : graph.input()) {
    if (initialized.count(input.name()) == 0) inputs.push_back(&input);
  }
  return inputs;
}

// ONNX's test generator writes bfloat16 tensors as their uint16 bit patterns (NumPy has no
// bfloat16); the value's declared type says what the bits stand for.
StoredTensor read_declared(const fs::path& path, const onnx::ValueInfoProto& declared) {
  StoredTensor tensor = read_tensor_file(path);
  if (declared.type().tensor_type().elem_type() == onnx::TensorProto::BFLOAT16 &&
      tensor.element_type == onnx::TensorProto::UINT16) {
    tensor.element_type = onnx::TensorProto::BFLOAT16;
  }
  return tensor;
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// The first non-empty line of the program's message, as it would read on any machine.
std::string refusal_reason(const std::string& output, const fs::path& test_dir,
                           const fs::path& scratch) {
  std::string line;
  for (std::size_t start = 0; start < output.size();) {
    const std::size_t end = std::min(output.find('\n', start), output.size());
    line = output.substr(start, end - start);
    if (!line.empty()) break;
    start = end + 1;
  }
  for (const std::string prefix : {"polyarch: error: ", "polyarch: "}) {
    if (line.rfind(prefix, 0) == 0) {
      line.erase(0, prefix.size());
      break;
    }
  }
  replace_all(line, test_dir.string() + "/", "");
  replace_all(line, scratch.string() + "/", "");
  std::replace(line.begin(), line.end(), '\t', ' ');
  return line.empty() ? "exited with an error and no message" : line;
}

Outcome compare_outputs(const onnx::GraphProto& graph, const fs::path& data_dir,
                        const fs::path& outputs_dir) {
  for (int i = 0; i < graph.output_size(); ++i) {
    const std::string& name = graph.output(i).name();
    const fs::path written = outputs_dir / interp::npy_file_name(name);
    if (!fs::exists(written)) return {Status::kWrong, "output '" + name + "' was not written"};
    const StoredTensor expected =
        read_declared(data_dir / ("output_" + std::to_string(i) + ".pb"), graph.output(i));
    const interp::NpyArray actual = interp::read_npy(written);
    if (auto mismatch = output_mismatch(expected, actual.tensor)) {
      return {Status::kWrong, "output '" + name + "': " + *mismatch};
    }
  }
  return {Status::kPass, ""};
}

Outcome run_in(const fs::path& test_dir, const fs::path& polyarch, const fs::path& scratch) {
  const onnx::ModelProto model = read_model(test_dir / "model.onnx");
  const fs::path data_dir = test_dir / "test_data_set_0";
  std::string command = "timeout " + std::to_string(kRunTimeoutSeconds) + " " +
                        shell_quoted(polyarch.string()) + " run --functional --quiet --workload " +
                        shell_quoted((test_dir / "model.onnx").string()) + " --out " +
                        shell_quoted((scratch / "run").string());
  const std::vector<const onnx::ValueInfoProto*> inputs = fed_inputs(model.graph());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const fs::path stored = data_dir / ("input_" + std::to_string(i) + ".pb");
    if (!fs::exists(stored)) break;  // trailing optional inputs the test leaves out
    if (!inputs[i]->type().has_tensor_type()) {
      return {Status::kSkipped, "input '" + inputs[i]->name() +
                                    "' is a sequence, map or optional value, which .npy "
                                    "files cannot hold"};
    }
    const fs::path npy = scratch / ("input_" + std::to_string(i) + ".npy");
    std::ofstream(npy, std::ios::binary) << npy_bytes(read_declared(stored, *inputs[i]));
    command += " --input " + shell_quoted(inputs[i]->name() + "=" + npy.string());
  }
  const test_support::CommandOutput run = test_support::run_command(command);
  if (run.exit_code == 124) return {Status::kRefused, "did not finish within the time limit"};
  if (run.exit_code != 0) {
    std::string reason = refusal_reason(run.output, test_dir, scratch);
    if (run.exit_code != 1 && run.exit_code != 2) {
      reason = "exited with status " + std::to_string(run.exit_code) + ": " + reason;
    }
    return {Status::kRefused, reason};
  }
  return compare_outputs(model.graph(), data_dir, scratch / "run" / "outputs");
}

}  // namespace

std::string_view status_name(Status status) {
  switch (status) {
    case Status::kPass:
      return "pass";
    case Status::kWrong:
      return "wrong";
    case Status::kRefused:
      return "refused";
    case Status::kSkipped:
      return "skipped";
  }
  return "?";
}

std::optional<Status> parse_status(std::string_view name) {
  for (Status status : {Status::kPass, Status::kWrong, Status::kRefused, Status::kSkipped}) {
    if (status_name(status) == name) return status;
  }
  return std::nullopt;
}

std::vector<fs::path> node_test_dirs(const fs::path& root) {
  std::vector<fs::path> dirs;
  for (const fs::directory_entry& entry : fs::directory_iterator(root)) {
    if (fs::exists(entry.path() / "model.onnx")) dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

Outcome run_node_test(const fs::path& test_dir, const fs::path& polyarch, const fs::path& scratch) {
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  Outcome outcome;
  try {
    outcome = run_in(test_dir, polyarch, scratch);
  } catch (const std::exception& error) {
    // The harness's own trouble (a test file it cannot read) must not pass as the program's.
    outcome = {Status::kWrong, std::string("the harness failed: ") + error.what()};
  }
  fs::remove_all(scratch);
  return outcome;
}

}  // namespace polyarch::onnx_conformance
