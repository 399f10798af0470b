#include "compiler/frontend/workload_loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

namespace polyarch::frontend {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::source_path;
using ::testing::HasSubstr;

int64_t total_macs(const ir::Graph& graph) {
  int64_t macs = 0;
  for (ir::NodeId id : graph.topological_ops()) macs += ir::mac_count(graph.op(id));
  return macs;
}

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

// torchvision ResNet-50 at 224x224: about 4.09 GMACs (conv layers and fc).
constexpr double kResnet50Macs = 4.09e9;

TEST(WorkloadLoader, Resnet50LayerListHas54OpsAndTheKnownMacCount) {
  const ir::Graph graph = load_workload(source_path("workloads/resnet50_layers.yaml"));
  EXPECT_EQ(graph.op_count(), 54u);
  EXPECT_NEAR(static_cast<double>(total_macs(graph)), kResnet50Macs, 0.02 * kResnet50Macs);
  const auto ops = graph.topological_ops();
  EXPECT_EQ(graph.op(ops.front()).name, "conv1");
  EXPECT_EQ(graph.op(ops.back()).name, "fc");
  // The last conv's output is 7x7x2048, as torchvision's layer4.
  const ir::NodeId last_conv = ops[ops.size() - 2];
  EXPECT_EQ(graph.tensor(graph.outputs_of(last_conv)[0]).shape,
            (std::vector<int64_t>{1, 2048, 7, 7}));
}

TEST(WorkloadLoader, Resnet50ScaleSimCsvMatchesTheLayerListLayerByLayer) {
  const ir::Graph yaml = load_workload(source_path("workloads/resnet50_layers.yaml"));
  const ir::Graph csv = load_workload(source_path("workloads/resnet50_scalesim.csv"));
  const auto yaml_ops = yaml.topological_ops();
  const auto csv_ops = csv.topological_ops();
  ASSERT_EQ(yaml_ops.size(), csv_ops.size());
  for (std::size_t i = 0; i < yaml_ops.size(); ++i) {
    const ir::Op& from_yaml = yaml.op(yaml_ops[i]);
    const ir::Op& from_csv = csv.op(csv_ops[i]);
    EXPECT_EQ(from_yaml.name, from_csv.name);
    EXPECT_EQ(ir::mac_count(from_yaml), ir::mac_count(from_csv)) << from_yaml.name;
    // fc is a GEMM in one and a 1x1 convolution in the other: compare element counts.
    EXPECT_EQ(element_count(yaml.tensor(yaml.outputs_of(yaml_ops[i])[0]).shape),
              element_count(csv.tensor(csv.outputs_of(csv_ops[i])[0]).shape))
        << from_yaml.name;
  }
}

TEST(WorkloadLoader, BertBaseLayerListAndCsvAgreeOnMacs) {
  const ir::Graph yaml = load_workload(source_path("workloads/bert_base_gemms.yaml"));
  const ir::Graph csv = load_workload(source_path("workloads/bert_base_scalesim_gemm.csv"));
  EXPECT_EQ(yaml.op_count(), 8u);
  EXPECT_EQ(csv.op_count(), 30u);
  // 4 projections of 512x768x768, two FFN GEMMs, and 2 x 12 heads of 512x512x64.
  const int64_t expected = 4 * int64_t{512} * 768 * 768 + 2 * int64_t{512} * 3072 * 768 +
                           2 * 12 * int64_t{512} * 512 * 64;
  EXPECT_EQ(total_macs(yaml), expected);
  EXPECT_EQ(total_macs(csv), expected);
}

TEST(WorkloadLoader, GptDecodeStepHasTheLmHead) {
  const ir::Graph graph = load_workload(source_path("workloads/gpt_decode_step.yaml"));
  EXPECT_EQ(graph.op_count(), 7u);
  const auto ops = graph.topological_ops();
  const ir::Op& lm_head = graph.op(ops.back());
  EXPECT_EQ(lm_head.name, "lm_head");
  EXPECT_EQ(std::get<ir::GemmAttrs>(lm_head.attrs).n, 50257);
}

TEST(WorkloadLoader, UnknownExtensionIsABadInputError) {
  auto error = capture_error([] { load_workload("model.pt"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_THAT(error->message(), HasSubstr("unknown workload format '.pt'"));
  EXPECT_THAT(error->message(), HasSubstr(".onnx model"));
}

TEST(WorkloadLoader, ExtensionMatchIgnoresCase) {
  auto error = capture_error([] { load_workload("/nonexistent/NET.YML"); });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("not found"));
}

TEST(WorkloadLoader, Sha256IsStableHex) {
  const std::string digest = workload_sha256(source_path("workloads/gpt_decode_step.yaml"));
  EXPECT_EQ(digest.size(), 64u);
  EXPECT_EQ(digest.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(digest, workload_sha256(source_path("workloads/gpt_decode_step.yaml")));
}

}  // namespace
}  // namespace polyarch::frontend
