#include "compiler/passes/precision.h"

#include <sstream>

#include "compiler/ir/graph_edit.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

namespace {

const std::map<std::string, ir::OpKind>& kinds_by_name() {
  static const std::map<std::string, ir::OpKind> kinds = [] {
    std::map<std::string, ir::OpKind> table;
    for (int kind = 0; kind < static_cast<int>(ir::OpKind::kFrontend); ++kind) {
      const auto op_kind = static_cast<ir::OpKind>(kind);
      table.emplace(std::string(ir::op_kind_name(op_kind)), op_kind);
    }
    return table;
  }();
  return kinds;
}

ir::DType policy_dtype(const std::string& text, const std::string& whole) {
  const std::optional<ir::DType> dtype = ir::parse_dtype(text);
  if (!dtype || (*dtype != ir::DType::kFp32 && *dtype != ir::DType::kFp16 &&
                 *dtype != ir::DType::kBf16 && *dtype != ir::DType::kInt8)) {
    throw_bad_input({}, "--precision " + whole + ": '" + text +
                            "' is not a precision (fp32, fp16, bf16 or int8)");
  }
  return *dtype;
}

bool is_matrix_op(const ir::Op& op) {
  return op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d;
}

// The integer type a Gemm's or Conv2d's activation had before a DequantizeLinear made it float:
// the op reads quantised data with scales.
std::optional<ir::DType> quantised_input(const ir::Graph& graph, ir::NodeId op_id) {
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
  if (inputs.empty()) return std::nullopt;
  std::optional<ir::NodeId> producer = ir::producer_of(graph, inputs.front());
  // A layout pass transpose moves the same values; the quantised data is behind it.
  while (producer && graph.op(*producer).kind() == ir::OpKind::kCopy &&
         graph.op(*producer).layout && graph.inputs_of(*producer).size() == 1) {
    producer = ir::producer_of(graph, graph.inputs_of(*producer).front());
  }
  if (!producer) return std::nullopt;
  const auto* dequantize = std::get_if<ir::ElementwiseAttrs>(&graph.op(*producer).attrs);
  if (dequantize == nullptr || dequantize->fn != "dequantize") return std::nullopt;
  const std::vector<ir::NodeId> quantised = graph.inputs_of(*producer);
  if (quantised.empty()) return std::nullopt;
  const ir::DType dtype = graph.tensor(quantised.front()).dtype;
  if (dtype != ir::DType::kInt8 && dtype != ir::DType::kUint8) return std::nullopt;
  return ir::DType::kInt8;  // uint8 activations run on the same 8-bit datapath
}

// A Copy's bytes are counted at the type it moved; retyping it rescales them.
void retype(ir::Op& op, ir::DType dtype) {
  if (auto* copy = std::get_if<ir::CopyAttrs>(&op.attrs); copy != nullptr && op.dtype) {
    copy->bytes = copy->bytes / ir::dtype_bytes(*op.dtype) * ir::dtype_bytes(dtype);
  }
  op.dtype = dtype;
}

}  // namespace

std::optional<ir::DType> PrecisionPolicy::dtype_for(ir::OpKind kind) const {
  if (const auto found = by_kind.find(kind); found != by_kind.end()) return found->second;
  return target;
}

PrecisionPolicy parse_precision_policy(const std::string& text) {
  PrecisionPolicy policy;
  std::stringstream parts(text);
  std::string part;
  bool first = true;
  while (std::getline(parts, part, ',')) {
    if (first) {
      policy.target = policy_dtype(part, text);
      if (*policy.target == ir::DType::kFp16 || *policy.target == ir::DType::kBf16) {
        policy.by_kind[ir::OpKind::kSoftmax] = ir::DType::kFp32;
        policy.by_kind[ir::OpKind::kNorm] = ir::DType::kFp32;
      } else if (*policy.target == ir::DType::kInt8) {
        for (const auto& [name, kind] : kinds_by_name()) {
          if (kind != ir::OpKind::kGemm && kind != ir::OpKind::kConv2d) {
            policy.by_kind[kind] = ir::DType::kFp32;
          }
        }
      }
      first = false;
      continue;
    }
    const std::size_t equals = part.find('=');
    const auto kind = kinds_by_name().find(part.substr(0, equals));
    if (equals == std::string::npos || kind == kinds_by_name().end()) {
      throw_bad_input({}, "--precision " + text + ": '" + part +
                              "' is not KIND=DTYPE with KIND one of gemm, conv2d, attention, "
                              "elementwise, reduce, norm, softmax, pool, embedding, copy");
    }
    policy.by_kind[kind->second] = policy_dtype(part.substr(equals + 1), text);
  }
  if (first) throw_bad_input({}, "--precision needs a type (fp32, fp16, bf16 or int8)");
  return policy;
}

PassStatistics PrecisionPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("qdq int8", 0);
  statistics.add("changed", 0);
  for (ir::NodeId op_id : graph.topological_ops()) {
    ir::Op& op = graph.op(op_id);
    if (op.kind() == ir::OpKind::kFrontend) continue;
    if (is_matrix_op(op)) {
      if (const std::optional<ir::DType> quantised = quantised_input(graph, op_id)) {
        op.dtype = *quantised;  // the model's choice; no policy overrides it
        statistics.add("qdq int8");
        continue;
      }
    }
    // Integer ops (indices, shapes, the model's own quantised data) keep their type.
    if (op.dtype && !is_float_dtype(*op.dtype)) continue;
    const std::optional<ir::DType> dtype = policy_.dtype_for(op.kind());
    if (!dtype || dtype == op.dtype) continue;
    retype(op, *dtype);
    statistics.add("changed");
  }
  return statistics;
}

}  // namespace polyarch::passes
