#include "compiler/passes/precision.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "compiler/ir/graph_edit.h"
#include "compiler/ir/weight_sparsity.h"
#include "compiler/passes/qdq_weights.h"
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

[[noreturn]] void bad_part(const std::string& whole, const std::string& part,
                           const std::string& why) {
  throw_bad_input({}, "--precision " + whole + ": '" + part + "' " + why);
}

// A type ops compute in: any arithmetic type but int4, which no unit computes in.
ir::DType compute_dtype(const std::string& text, const std::string& whole) {
  const std::optional<ir::DType> dtype = ir::parse_dtype(text);
  if (dtype == ir::DType::kInt4) {
    bad_part(whole, text,
             "is a storage format, not a type ops compute in: weights=int4:g128 stores weights in "
             "it (with activations=fp16, say)");
  }
  if (!dtype || std::find(ir::dtype_names().begin(), ir::dtype_names().end(),
                          ir::dtype_name(*dtype)) == ir::dtype_names().end()) {
    bad_part(whole, text, "is not a precision (fp32, fp16, bf16, int8, fp8_e4m3, fp8_e5m2, fp8)");
  }
  return *dtype;
}

// DTYPE[:gN]: int8, int4 or an fp8 format, with one scale per N weights (per output channel
// without :gN).
ir::WeightFormat weight_format(const std::string& text, const std::string& whole) {
  const std::size_t colon = text.find(':');
  ir::WeightFormat format;
  const std::optional<ir::DType> dtype = ir::parse_dtype(text.substr(0, colon));
  if (!dtype || (*dtype != ir::DType::kInt8 && *dtype != ir::DType::kInt4 &&
                 *dtype != ir::DType::kFp8E4M3 && *dtype != ir::DType::kFp8E5M2)) {
    bad_part(whole, text, "is not a weight format (int8, int4, fp8_e4m3, fp8_e5m2, fp8)");
  }
  format.dtype = *dtype;
  if (colon != std::string::npos) {
    const std::string group = text.substr(colon + 1);
    char* end = nullptr;
    const long long size = group.size() > 1 && group[0] == 'g'
                               ? std::strtoll(group.c_str() + 1, &end, 10)
                               : 0;
    if (end == nullptr || *end != '\0' || size < 1 || size > (1LL << 30)) {
      bad_part(whole, text, "needs a group as :gN with N a positive size (int4:g128)");
    }
    format.group = size;
  }
  return format;
}

// A KV cache's type: one ops compute in, or int4, in which caches are stored (KIVI).
ir::DType kv_cache_dtype(const std::string& text, const std::string& whole) {
  if (ir::parse_dtype(text) == ir::DType::kInt4) return ir::DType::kInt4;
  return compute_dtype(text, whole);
}

// What a precision type implies for the other kinds, before KIND=TYPE overrides: fp16 and bf16
// keep softmax and norm in fp32 (PyTorch autocast); int8 quantises only the matrix ops, the rest
// in fp32; fp8 runs the matrix ops in fp8 and the rest in bf16, softmax and norm in fp32
// (Transformer Engine's fp8 recipe).
void add_defaults(PrecisionPolicy& policy) {
  const ir::DType target = *policy.target;
  auto all_but_matrix = [&](ir::DType dtype) {
    for (const auto& [name, kind] : kinds_by_name()) {
      if (kind != ir::OpKind::kGemm && kind != ir::OpKind::kConv2d) policy.by_kind[kind] = dtype;
    }
  };
  if (target == ir::DType::kFp16 || target == ir::DType::kBf16) {
    policy.by_kind[ir::OpKind::kSoftmax] = ir::DType::kFp32;
    policy.by_kind[ir::OpKind::kNorm] = ir::DType::kFp32;
  } else if (target == ir::DType::kInt8) {
    all_but_matrix(ir::DType::kFp32);
  } else if (target == ir::DType::kFp8E4M3 || target == ir::DType::kFp8E5M2) {
    all_but_matrix(ir::DType::kBf16);
    policy.by_kind[ir::OpKind::kSoftmax] = ir::DType::kFp32;
    policy.by_kind[ir::OpKind::kNorm] = ir::DType::kFp32;
  }
}

// Named schemes as serving stacks call them: w8a8 (int8 weights and activations, SmoothQuant),
// w4a16 and w8a16 (weight-only: GPTQ/AWQ int4 in groups of 128, int8 per channel; fp16
// activations).
bool apply_scheme(const std::string& name, std::optional<ir::DType>& target,
                  std::optional<ir::WeightFormat>& weights) {
  if (name == "w8a8") {
    target = ir::DType::kInt8;
  } else if (name == "w4a16") {
    target = ir::DType::kFp16;
    weights = ir::WeightFormat{ir::DType::kInt4, 128};
  } else if (name == "w8a16") {
    target = ir::DType::kFp16;
    weights = ir::WeightFormat{ir::DType::kInt8, 0};
  } else {
    return false;
  }
  return true;
}

bool is_matrix_op(const ir::Op& op) {
  return op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d;
}

// The type a Gemm's or Conv2d's activation had before a DequantizeLinear made it float (int8,
// or a float8 type from opset 19 on): the op reads quantised data with scales.
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
  if (dtype == ir::DType::kFp8E4M3 || dtype == ir::DType::kFp8E5M2) return dtype;
  if (dtype != ir::DType::kInt8 && dtype != ir::DType::kUint8) return std::nullopt;
  return ir::DType::kInt8;  // uint8 activations run on the same 8-bit datapath
}

// A Copy's bytes are counted at the type it moved; retyping it rescales them.
void retype(ir::Op& op, ir::DType dtype) {
  if (auto* copy = std::get_if<ir::CopyAttrs>(&op.attrs); copy != nullptr && op.dtype) {
    copy->bytes = copy->bytes * ir::dtype_bits(dtype) / ir::dtype_bits(*op.dtype);
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
  std::optional<ir::DType> target;
  std::vector<std::pair<ir::OpKind, ir::DType>> overrides;
  std::stringstream parts(text);
  std::string part;
  while (std::getline(parts, part, ',')) {
    const std::size_t equals = part.find('=');
    const std::string key = part.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : part.substr(equals + 1);
    const bool sets_target = equals == std::string::npos || key == "activations";
    if (sets_target && target) bad_part(text, part, "sets the precision a second time");
    if (equals == std::string::npos) {
      if (!apply_scheme(part, target, policy.weights)) target = compute_dtype(part, text);
    } else if (key == "activations") {
      target = compute_dtype(value, text);
    } else if (key == "weights") {
      policy.weights = weight_format(value, text);
    } else if (key == "kv_cache") {
      policy.kv_cache = kv_cache_dtype(value, text);
    } else if (const auto kind = kinds_by_name().find(key); kind != kinds_by_name().end()) {
      overrides.emplace_back(kind->second, compute_dtype(value, text));
    } else {
      bad_part(text, part,
               "is not a precision, a scheme (w8a8, w4a16, w8a16), activations=, weights=, "
               "kv_cache= or KIND=DTYPE with KIND one of gemm, conv2d, attention, elementwise, "
               "reduce, norm, softmax, pool, embedding, copy");
    }
  }
  if (!target && !policy.weights && !policy.kv_cache && overrides.empty()) {
    throw_bad_input({}, "--precision needs a type (fp32, fp16, bf16, int8, fp8) or a scheme");
  }
  policy.target = target;
  if (target) add_defaults(policy);
  for (const auto& [kind, dtype] : overrides) policy.by_kind[kind] = dtype;
  return policy;
}

// Weights and KV caches go to the policy's storage types where those are narrower than the
// float type the op computes in.
void PrecisionPass::store_narrower(ir::Op& op, PassStatistics& statistics) const {
  if (!op.dtype || !is_float_dtype(*op.dtype)) return;
  const int64_t bits = ir::dtype_bits(*op.dtype);
  // A model's own weight-only storage (a QDQ model's) stays: a weights= scheme does not replace
  // it.
  if (policy_.weights && !op.weight_format && is_matrix_op(op) && ir::weight_elements(op) > 0 &&
      ir::dtype_bits(policy_.weights->dtype) < bits) {
    op.weight_format = policy_.weights;
    statistics.add("weights stored narrower");
  }
  auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
  if (policy_.kv_cache && attention != nullptr && ir::dtype_bits(*policy_.kv_cache) < bits) {
    attention->kv_dtype = policy_.kv_cache;
    statistics.add("kv caches stored narrower");
  }
}

PassStatistics PrecisionPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("qdq int8", 0);
  statistics.add("changed", 0);
  statistics.add("weights stored narrower", 0);
  statistics.add("kv caches stored narrower", 0);
  statistics.add("qdq weights", 0);
  for (ir::NodeId op_id : graph.topological_ops()) {
    ir::Op& op = graph.op(op_id);
    if (op.kind() == ir::OpKind::kFrontend) continue;
    if (is_matrix_op(op)) {
      if (const std::optional<ir::DType> quantised = quantised_input(graph, op_id)) {
        op.dtype = *quantised;  // the model's choice; no policy overrides it
        statistics.add(*quantised == ir::DType::kInt8 ? "qdq int8" : "qdq fp8");
        continue;
      }
      if (const std::optional<DequantizedWeights> stored = dequantized_weights(graph, op_id)) {
        fold_into_reader(graph.op(stored->dequantize));
        op.weight_format = stored->format;
        statistics.add("qdq weights");
      }
    }
    // Integer ops (indices, shapes, the model's own quantised data) keep their type.
    if (op.dtype && !is_float_dtype(*op.dtype)) continue;
    const std::optional<ir::DType> dtype = policy_.dtype_for(op.kind());
    if (dtype && dtype != op.dtype) {
      retype(op, *dtype);
      statistics.add("changed");
    }
    store_narrower(op, statistics);
  }
  return statistics;
}

}  // namespace polyarch::passes
