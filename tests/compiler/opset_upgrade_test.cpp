// Models of opsets 1 to 12 imported through ONNX's version converter.
#include "compiler/frontend/onnx/opset_upgrade.h"

#include <gtest/gtest.h>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_test_models.h"

namespace polyarch::frontend {
namespace {

using namespace polyarch::frontend::onnx_testing;
using polyarch::testing::capture_error;

TEST_F(OnnxFixture, Opset11ModelIsConvertedTo13AndRecordsItsOwnOpset) {
  const OnnxImport import = import_onnx(write_model("old.onnx", small_model(11)));
  EXPECT_EQ(import.opset, 13);
  EXPECT_EQ(import.file_opset, 11);
  EXPECT_EQ(node_of(import.graph, "add").opset, 13);
  const ir::Tensor* bias = find_tensor(import.graph, "bias");
  ASSERT_NE(bias, nullptr);
  ASSERT_TRUE(bias->has_data());
  EXPECT_EQ(float_at(*bias, 3), 4.0f);
  EXPECT_EQ(import.output_names, std::vector<std::string>{"y"});
}

TEST_F(OnnxFixture, ModelOfASupportedOpsetIsNotConverted) {
  const OnnxImport import = import_onnx(write_model("current.onnx", small_model(17)));
  EXPECT_EQ(import.opset, 17);
  EXPECT_EQ(import.file_opset, 17);
}

TEST_F(OnnxFixture, ConversionTheConverterRefusesIsBadInputNamingBothOpsets) {
  onnx::ModelProto model = small_model(11);
  model.mutable_graph()->mutable_node(1)->set_op_type("NoSuchOperator");
  const std::optional<Error> error =
      capture_error([&] { import_onnx(write_model("unknown.onnx", model)); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_NE(std::string(error->what()).find("from opset 11 to 13"), std::string::npos)
      << error->what();
  EXPECT_NE(error->where().file.find("unknown.onnx"), std::string::npos);
}

TEST_F(OnnxFixture, Opset6ModelIsConvertedToo) {
  const OnnxImport import = import_onnx(write_model("ancient.onnx", small_model(6)));
  EXPECT_EQ(import.opset, 13);
  EXPECT_EQ(import.file_opset, 6);
  EXPECT_EQ(node_of(import.graph, "add").opset, 13);
}

TEST_F(OnnxFixture, OpsetsAboveTheRangeAreRefusedWithTheRange) {
  const std::optional<Error> error =
      capture_error([&] { import_onnx(write_model("future.onnx", small_model(22))); });
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(std::string(error->what())
                .find("opset 22; polyarch imports opsets 13 to 21, and 1 "
                      "to 12 through ONNX's version converter"),
            std::string::npos)
      << error->what();
}

}  // namespace
}  // namespace polyarch::frontend
