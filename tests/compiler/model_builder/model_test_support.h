#pragma once
// What the model-builder tests share: building a model from YAML text, compiling an ONNX test
// model through the standard pipeline, and comparing graphs op by op (as attribute
// signatures) or by their matrix products.
#include <array>
#include <set>
#include <string>

#include "compiler/frontend/model_builder/model_builder.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/ir/op_text.h"
#include "compiler/lower/pipeline.h"
#include "tests/base/error_capture.h"

namespace polyarch::testing {

inline ir::Graph built_model(const std::string& yaml) {
  return frontend::model_graph_from_config(parse_config_text(yaml, "model.yaml"), "model");
}

// A shipped model file built with every op in `dtype`, to compare with an fp32 ONNX export.
inline ir::Graph built_model_file(const std::string& relative, ir::DType dtype) {
  frontend::ModelConfig config =
      frontend::read_model_config(load_config_with_base(source_path(relative)), "model");
  config.dtype = dtype;
  return frontend::build_model(config);
}

inline ir::Graph compiled_onnx(const std::string& model) {
  ir::Graph graph = frontend::load_onnx(source_path("tests/data/onnx/" + model));
  lower::standard_pipeline().run(graph);
  return graph;
}

inline const ir::Op& op_named(const ir::Graph& graph, const std::string& name) {
  for (ir::NodeId id : graph.topological_ops()) {
    if (graph.op(id).name == name) return graph.op(id);
  }
  throw std::runtime_error("no op named " + name);
}

template <typename Attrs>
const Attrs& attrs_of(const ir::Graph& graph, const std::string& name) {
  return std::get<Attrs>(op_named(graph, name).attrs);
}

// Everything that decides an op's work and traffic, names aside: its kind, the attributes IR
// dumps print, the input extents that conv and pool dumps leave to operand shapes, and dtype.
inline std::string op_signature(const ir::Op& op) {
  std::string extents;
  if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    extents = " in=" + std::to_string(conv->n) + "x" + std::to_string(conv->c) + "x" +
              std::to_string(conv->h) + "x" + std::to_string(conv->w) +
              " filters=" + std::to_string(conv->k) + "x" + std::to_string(conv->r) + "x" +
              std::to_string(conv->s);
  } else if (const auto* pool = std::get_if<ir::PoolAttrs>(&op.attrs)) {
    extents = " in=" + std::to_string(pool->n) + "x" + std::to_string(pool->c) + "x" +
              std::to_string(pool->h) + "x" + std::to_string(pool->w);
  }
  const std::string dtype = op.dtype ? std::string(ir::dtype_name(*op.dtype)) : "native";
  return ir::op_type_name(op) + extents + " " + ir::op_attributes_text(op.attrs) + " " + dtype;
}

inline std::multiset<std::string> op_signatures(const ir::Graph& graph) {
  std::multiset<std::string> signatures;
  for (ir::NodeId id : graph.topological_ops()) signatures.insert(op_signature(graph.op(id)));
  return signatures;
}

// One matrix product: {m, n, k, batch, B per batch entry (1) or shared (0)}.
using MatrixProduct = std::array<int64_t, 5>;

// Every GEMM, and every fused attention as the two products an unfused graph computes for it:
// QK^T ([s x d] x [d x kv_len]) and PV ([s x kv_len] x [kv_len x d]) for each of b*h heads.
// So graphs compare alike whether or not attention was fused.
inline std::multiset<MatrixProduct> matrix_products(const ir::Graph& graph) {
  std::multiset<MatrixProduct> products;
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::OpAttrs& attrs = graph.op(id).attrs;
    if (const auto* gemm = std::get_if<ir::GemmAttrs>(&attrs)) {
      products.insert({gemm->m, gemm->n, gemm->k, gemm->batch, gemm->b_shared ? 0 : 1});
    } else if (const auto* attention = std::get_if<ir::AttentionAttrs>(&attrs)) {
      const int64_t heads = attention->b * attention->h;
      products.insert({attention->s, attention->kv_len, attention->d, heads, 1});
      products.insert({attention->s, attention->d, attention->kv_len, heads, 1});
    }
  }
  return products;
}

}  // namespace polyarch::testing
