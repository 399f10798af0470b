// The zoo of real exports (torchvision classification, segmentation and detection models and
// hand-built GPT-2-like and Llama-like decoders, tests/onnx_zoo/export_zoo.py): each compiles
// with the MACs torch counted for it, within 1 %, and simulates end to end on a GPU-like and a
// heterogeneous SoC; the small models that keep their weights (two decoders and a dilated-conv
// segmentation head) run functionally to torch's output.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/interp/npy_io.h"
#include "tests/support/run_polyarch.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

struct ZooModel {
  std::string name;
  long long torch_macs = 0;
};

// Test names carry the model's name; failures print it rather than the struct's bytes.
void PrintTo(const ZooModel& model, std::ostream* os) { *os << model.name; }

// tests/data/onnx_zoo/macs.tsv: model, opset, torch MACs.
std::vector<ZooModel> zoo_models() {
  std::vector<ZooModel> models;
  std::istringstream lines(read_file(source_path("tests/data/onnx_zoo/macs.tsv")));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() == '#') continue;
    std::istringstream fields(line);
    ZooModel model;
    int opset = 0;
    fields >> model.name >> opset >> model.torch_macs;
    models.push_back(model);
  }
  return models;
}

std::string workload(const ZooModel& model) {
  return source_path("tests/data/onnx_zoo/" + model.name + ".onnx");
}

class OnnxZoo : public ::testing::TestWithParam<ZooModel> {};

TEST_P(OnnxZoo, CompilesWithTheMacsTorchCounts) {
  const auto run = run_polyarch("compile --workload " + workload(GetParam()));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::smatch total;
  ASSERT_TRUE(std::regex_search(run.output, total, std::regex("total MACs: ([0-9]+)")))
      << run.output;
  const double macs = std::stod(total[1].str());
  const auto expected = static_cast<double>(GetParam().torch_macs);
  EXPECT_LE(std::fabs(macs - expected), 0.01 * expected)
      << GetParam().name << ": polyarch " << macs << " MACs, torch " << expected;
}

TEST_P(OnnxZoo, SimulatesOnAGpuAndAHeterogeneousSoc) {
  for (const char* arch : {"h100_like", "mixed_soc"}) {
    const std::string out = ::testing::TempDir() + "zoo_" + GetParam().name + "_" + arch;
    const auto run = run_polyarch("run --quiet --arch " +
                                  source_path(std::string("configs/arch/") + arch + ".yaml") +
                                  " --workload " + workload(GetParam()) + " --out " + out);
    EXPECT_EQ(run.exit_code, 0) << GetParam().name << " on " << arch << ": " << run.output;
  }
}

INSTANTIATE_TEST_SUITE_P(Exports, OnnxZoo, ::testing::ValuesIn(zoo_models()),
                         [](const ::testing::TestParamInfo<ZooModel>& info) {
                           return info.param.name;
                         });

// The small models keep their weights: `run --functional` gives torch's output to a relative
// L2 error of at most 1e-4.
class OnnxZooWithWeights : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxZooWithWeights, FunctionalRunMatchesTorch) {
  const std::string base = source_path("tests/data/onnx_zoo/" + GetParam());
  const std::string out = ::testing::TempDir() + "zoo_functional_" + GetParam();
  const auto run = run_polyarch("run --functional --quiet --workload " + base + ".onnx --input " +
                                base + "_input.npy --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto actual = polyarch::interp::read_npy(out + "/outputs/output.npy").tensor;
  const auto expected = polyarch::interp::read_npy(base + "_output.npy").tensor;
  ASSERT_EQ(actual.shape, expected.shape);
  double error = 0.0;
  double norm = 0.0;
  for (std::size_t i = 0; i < expected.values.size(); ++i) {
    error += std::pow(double{actual.values[i]} - expected.values[i], 2);
    norm += std::pow(double{expected.values[i]}, 2);
  }
  EXPECT_LE(std::sqrt(error / norm), 1e-4) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(SmallModels, OnnxZooWithWeights,
                         ::testing::Values("gpt2_tiny", "llama_tiny", "atrous_tiny"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
