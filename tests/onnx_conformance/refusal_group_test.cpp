#include "tests/onnx_conformance/refusal_group.h"

#include <gtest/gtest.h>

namespace polyarch::onnx_conformance {
namespace {

TEST(RefusalGroup, NodeLocationBecomesItsOpType) {
  EXPECT_EQ(refusal_group("model.onnx: graph.node[3] 'Mod_3' (Mod): fmod=0 is not supported"),
            "Mod: fmod=0 is not supported");
}

TEST(RefusalGroup, ValueNamesAndInputFileNumbersAreLeftOut) {
  EXPECT_EQ(refusal_group("model.onnx: graph.input[1]: value 'y' has element type UINT64"),
            "graph input: value '…' has element type UINT64");
  EXPECT_EQ(refusal_group("input_1.npy: not a readable .npy file: element type '<f2'"),
            "an input .npy: not a readable .npy file: element type '<f2'");
}

TEST(RefusalGroup, AdviceAfterASemicolonIsLeftOut) {
  EXPECT_EQ(refusal_group("model.onnx: graph.node[0] 'T_0' (Trilu): unsupported ONNX operator "
                          "Trilu (opset 14); --allow-unknown costs it as a placeholder"),
            "Trilu: unsupported ONNX operator Trilu (opset 14)");
}

TEST(RefusalGroup, WhatSaysWhyIsKept) {
  EXPECT_NE(refusal_group("model.onnx: opset_import: the model uses ONNX opset 7;"),
            refusal_group("model.onnx: opset_import: the model uses ONNX opset 9;"));
}

}  // namespace
}  // namespace polyarch::onnx_conformance
