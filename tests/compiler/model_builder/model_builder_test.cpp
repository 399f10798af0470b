// The shipped model workloads: each loads through load_workload and has its model's published
// size.
#include "compiler/frontend/model_builder/model_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/op_table.h"
#include "tests/base/error_capture.h"

namespace polyarch::frontend {
namespace {

using polyarch::testing::source_path;

struct ShippedModel {
  const char* file;
  const char* name;
  int64_t ops;
  int64_t macs;
  int64_t parameters;
};

// Parameters: Llama 2 7B and Llama 3 8B exactly as their Hugging Face checkpoints count them;
// VGG-16 as torchvision; ResNet-50 and BERT-base as the lowered ONNX exports (folded batch
// norms; BERT without its position and token-type tables).
const ShippedModel kShipped[] = {
    {"bert_base.yaml", "bert_base_seq128", 150, 11173625856, 108891648},
    {"llama2_7b_decode.yaml", "llama2_7b_decode_kv2048", 515, 7144210432, 6738415616},
    {"llama3_8b_prefill.yaml", "llama3_8b_prefill_seq2048", 451, 15919564718080, 8030261248},
    {"resnet50.yaml", "resnet50", 122, 4089184256, 25530472},
    {"mobilenet_v2.yaml", "mobilenet_v2", 100, 300774272, 3487816},
    {"vgg16.yaml", "vgg16", 37, 15470264320, 138357544},
};

class ShippedModelTest : public ::testing::TestWithParam<ShippedModel> {};

TEST_P(ShippedModelTest, LoadsThroughTheWorkloadLoaderWithItsPublishedSize) {
  const ShippedModel& model = GetParam();
  const ir::Graph graph = load_workload(source_path(std::string("workloads/models/") + model.file));
  EXPECT_EQ(graph.name(), model.name);
  const lower::GraphTotals totals = lower::graph_totals(graph);
  EXPECT_EQ(totals.ops, model.ops);
  EXPECT_EQ(totals.macs, model.macs);
  EXPECT_EQ(totals.parameters, model.parameters);
  for (ir::NodeId id : graph.topological_ops()) {
    EXPECT_NE(graph.op(id).kind(), ir::OpKind::kFrontend);
    EXPECT_EQ(graph.op(id).dtype, std::nullopt);  // the unit's native type
  }
}

INSTANTIATE_TEST_SUITE_P(ModelBuilder, ShippedModelTest, ::testing::ValuesIn(kShipped),
                         [](const ::testing::TestParamInfo<ShippedModel>& info) {
                           return std::string(info.param.name);
                         });

TEST(ModelBuilder, DtypeGoesToEveryOpAndTensor) {
  const ir::Graph graph = model_graph_from_config(
      parse_config_text("model: {family: resnet, depth: 18, dtype: fp16}", "m.yaml"), "r18");
  EXPECT_EQ(graph.name(), "r18");
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id)) {
      EXPECT_EQ(graph.op(id).dtype, ir::DType::kFp16);
      EXPECT_EQ(graph.op(id).where.key_path, "model");
    } else {
      EXPECT_EQ(graph.tensor(id).dtype, ir::DType::kFp16);
    }
  }
}

}  // namespace
}  // namespace polyarch::frontend
