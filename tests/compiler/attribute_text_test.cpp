#include "compiler/ir/attribute_text.h"

#include <gtest/gtest.h>

namespace polyarch::ir {
namespace {

TEST(AttributeText, EachValueKindHasAStableSpelling) {
  EXPECT_EQ(attribute_value_text(int64_t{-3}), "-3");
  EXPECT_EQ(attribute_value_text(0.1), "0.1");  // shortest round-trip text, not 0.100000001
  EXPECT_EQ(attribute_value_text(std::string("SAME_UPPER")), "\"SAME_UPPER\"");
  EXPECT_EQ(attribute_value_text(std::vector<int64_t>{1, 2}), "[1,2]");
  // A whole float keeps ".0" so that the text IR reads it back as a float, not an integer.
  EXPECT_EQ(attribute_value_text(std::vector<double>{0.5, 2}), "[0.5,2.0]");
  EXPECT_EQ(attribute_value_text(std::vector<double>{}), "floats[]");
  EXPECT_EQ(attribute_value_text(std::vector<std::string>{"a", "b"}), "[\"a\",\"b\"]");
  Tensor value;
  value.dtype = DType::kInt64;
  value.shape = {3};
  EXPECT_EQ(attribute_value_text(value), "tensor<int64[3]>");
}

TEST(AttributeText, AttributesPrintInNameOrder) {
  OnnxNodeAttrs node;
  node.op_type = "Conv";
  node.attributes["strides"] = std::vector<int64_t>{2, 2};
  node.attributes["group"] = int64_t{1};
  EXPECT_EQ(onnx_attributes_text(node), "group=1 strides=[2,2]");
  EXPECT_EQ(onnx_attributes_text(OnnxNodeAttrs{}), "");
}

}  // namespace
}  // namespace polyarch::ir
