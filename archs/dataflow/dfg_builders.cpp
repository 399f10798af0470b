#include "archs/dataflow/dfg_builders.h"

#include <algorithm>
#include <map>

namespace polyarch::archs::dataflow {

namespace {

// Expansions of elementwise functions into ALU ops, in evaluation order.
//  gelu: the tanh form 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) (Hendrycks & Gimpel 2016).
//  erf: Abramowitz & Stegun 7.1.26, t = 1/(1 + p|x|), 5-term polynomial in t times exp(-x^2).
//  sigmoid 1/(1 + exp(-x)); silu x * sigmoid(x); quantize round(x/s) + z clamped.
//  lrn (of the usual size 5): x^2 summed over the window, then x * (bias + k*sum)^-beta.
//  round: adding and subtracting 1.5 * 2^23 rounds an fp32 to the nearest integer, ties to
//  even; floor and ceil correct that by one where it went the wrong way (cmp, sub, select).
//  sin and cos: a Cody-Waite range reduction to [-pi/4, pi/4] (mul, sub), x^2, and a degree-7
//  odd minimax polynomial in Horner form; tan the same for sin and cos, then a division.
//  asin, acos, atan: the argument reduced with a sqrt or a division, and a degree-9 odd
//  polynomial (Cephes' asinf/atanf).
const std::vector<std::string> kSinePolynomial = {"mul", "sub", "mul", "mul", "add",
                                                  "mul", "add", "mul", "add", "mul"};
const std::vector<std::string> kArcPolynomial = {"abs", "cmp", "sqrt", "select", "mul",
                                                 "mul", "add", "mul",  "add",    "mul",
                                                 "add", "mul", "add",  "mul",    "select"};

const std::map<std::string, std::vector<std::string>>& expansions() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"copy", {}},
      {"identity", {}},
      {"relu", {"max"}},
      {"neg", {"sub"}},
      {"reciprocal", {"div"}},
      {"sigmoid", {"sub", "exp", "add", "div"}},
      {"silu", {"sub", "exp", "add", "div", "mul"}},
      {"gelu", {"mul", "mul", "mul", "add", "mul", "tanh", "add", "mul", "mul"}},
      {"erf",
       {"abs", "mul", "add", "div", "mul", "add", "mul", "add", "mul", "add", "mul", "add", "mul",
        "mul", "sub", "exp", "mul", "sub", "select"}},
      {"softplus", {"exp", "add", "log"}},
      {"pow", {"log", "mul", "exp"}},
      {"clip", {"max", "min"}},
      {"batchnorm", {"mul", "add"}},
      {"quantize", {"mul", "add", "max", "min"}},
      {"dequantize", {"sub", "mul"}},
      {"equal", {"cmp"}},
      {"greater", {"cmp"}},
      {"less", {"cmp"}},
      {"where", {"select"}},
      {"cast", {"add"}},
      {"not", {"xor"}},
      {"floor", {"add", "sub", "cmp", "sub", "select"}},
      {"ceil", {"add", "sub", "cmp", "add", "select"}},
      {"round", {"add", "sub"}},
      {"sign", {"cmp", "cmp", "select"}},
      {"sin", kSinePolynomial},
      {"cos", kSinePolynomial},
      {"tan",
       {"mul", "sub", "mul", "mul", "add", "mul", "add", "mul", "add", "mul", "mul", "add", "mul",
        "add", "mul", "add", "div"}},
      {"asin", kArcPolynomial},
      {"acos", kArcPolynomial},
      {"atan", kArcPolynomial},
      {"sinh", {"exp", "div", "sub", "mul"}},
      {"cosh", {"exp", "div", "add", "mul"}},
      {"asinh", {"mul", "add", "sqrt", "add", "log"}},
      {"acosh", {"mul", "sub", "sqrt", "add", "log"}},
      {"atanh", {"add", "sub", "div", "log", "mul"}},
      {"softsign", {"abs", "add", "div"}},
      {"mish", {"exp", "add", "log", "tanh", "mul"}},
      {"elu", {"exp", "sub", "mul", "cmp", "select"}},
      {"celu", {"div", "exp", "sub", "mul", "cmp", "select"}},
      {"selu", {"exp", "sub", "mul", "cmp", "select", "mul"}},
      {"thresholdedrelu", {"cmp", "select"}},
      {"shrink", {"cmp", "cmp", "add", "sub", "select", "select"}},
      {"prelu", {"mul", "cmp", "select"}},
      {"mean", {"add", "mul"}},
      {"hardmax", {"cmp", "select"}},
      {"bitshift", {"shift"}},
      {"dynamicquantizelinear", {"max", "min", "mul", "add", "max", "min"}},
      {"meanvariancenormalization", {"add", "mul", "add", "sub", "sqrt", "add", "div"}},
      {"lrn",
       {"mul", "add", "mul", "add", "mul", "add", "mul", "add", "mul", "add", "mul", "add", "log",
        "mul", "exp", "mul"}},
  };
  return table;
}

// An op the PE lacks but can build from others (tanh(y) = 1 - 2 / (exp(2y) + 1)).
std::vector<std::string> with_fallbacks(const std::vector<std::string>& ops, const PeParams& pe) {
  std::vector<std::string> result;
  for (const std::string& op : ops) {
    if (op == "tanh" && !pe.has("tanh")) {
      result.insert(result.end(), {"mul", "exp", "add", "div", "sub"});
    } else if (op == "rsqrt" && !pe.has("rsqrt")) {
      result.insert(result.end(), {"sqrt", "div"});
    } else {
      result.push_back(op);
    }
  }
  return result;
}

int load(Dfg& dfg, const DataflowParams& params) {
  return dfg.add(NodeKind::kLoad, "load", params.memory.access_cycles);
}

// A store's result is the scratchpad write: one cycle.
int store(Dfg& dfg, const DataflowParams& /*params*/) {
  return dfg.add(NodeKind::kStore, "store", 1);
}

int alu(Dfg& dfg, const DataflowParams& params, const std::string& op, int64_t registers = 0) {
  return dfg.add(NodeKind::kAlu, op, params.pe.latency(op), registers);
}

// A chain of ALU ops from `input`; returns the last node (or `input` for an empty chain).
int chain(Dfg& dfg, const DataflowParams& params, int input, const std::vector<std::string>& ops) {
  int previous = input;
  for (const std::string& op : ops) {
    const int node = alu(dfg, params, op);
    dfg.connect(previous, node);
    previous = node;
  }
  return previous;
}

// An accumulator: `op` combining each iteration's input with its own earlier result.
int accumulate(Dfg& dfg, const DataflowParams& params, int input, const std::string& op,
               int64_t interleave) {
  const int node = alu(dfg, params, op);
  dfg.connect(input, node);
  dfg.connect(node, node, interleave);
  return node;
}

std::string reduce_op(const std::string& fn) {
  if (fn == "max" || fn == "min") return fn;
  if (fn == "argmax" || fn == "argmin" || fn == "topk") return "cmp";
  if (fn == "prod") return "mul";
  return "add";
}

// What each element goes through before it is accumulated: |x| for the L1 norm, x^2 for the L2
// norm and the sum of squares, e^x for log-sum-exp; an arg reduction selects the running index.
std::vector<std::string> reduce_element_ops(const std::string& fn) {
  if (fn == "l1") return {"abs"};
  if (fn == "l2" || fn == "sumsquare") return {"mul"};
  if (fn == "logsumexp") return {"exp"};
  if (fn == "argmax" || fn == "argmin") return {"select"};
  return {};
}

}  // namespace

std::vector<std::string> alu_sequence(const std::string& fn, const PeParams& pe) {
  auto found = expansions().find(fn);
  if (found != expansions().end()) return with_fallbacks(found->second, pe);
  // A basic op is itself (add, mul, max, exp, sqrt, ...); any other function counts as one op.
  for (const std::string& name : alu_op_names()) {
    if (name == fn) return with_fallbacks({fn}, pe);
  }
  return {"add"};
}

Dfg gemm_tile_dfg(const DataflowParams& params, const GemmTile& tile) {
  Dfg dfg;
  dfg.label =
      "gemm tile " + std::to_string(tile.k_unroll) + "k x " + std::to_string(tile.n_unroll) + "n";
  const bool mac = params.pe.has_mac(tile.dtype);
  std::vector<int> a_loads;
  for (int64_t kk = 0; kk < tile.k_unroll; ++kk) a_loads.push_back(load(dfg, params));
  for (int64_t column = 0; column < tile.n_unroll; ++column) {
    int partial = tile.psum_in ? load(dfg, params) : -1;
    for (int64_t kk = 0; kk < tile.k_unroll; ++kk) {
      const int a = a_loads[static_cast<std::size_t>(kk)];
      if (mac) {
        const int node = dfg.add(NodeKind::kMac, "mac", params.pe.latency("mac"), 1);
        dfg.connect(a, node);
        if (partial >= 0) dfg.connect(partial, node);
        partial = node;
        continue;
      }
      const int product = alu(dfg, params, "mul", 1);
      dfg.connect(a, product);
      if (partial < 0) {
        partial = product;
        continue;
      }
      const int sum = alu(dfg, params, "add");
      dfg.connect(partial, sum);
      dfg.connect(product, sum);
      partial = sum;
    }
    const int out = store(dfg, params);
    dfg.connect(partial, out);
  }
  return dfg;
}

Dfg dot_dfg(const DataflowParams& params, const DotTile& tile) {
  Dfg dfg;
  dfg.label = "dot 1 x " + std::to_string(tile.n_unroll) + "n";
  const int row = load(dfg, params);
  for (int64_t column = 0; column < tile.n_unroll; ++column) {
    const int b = load(dfg, params);
    if (params.pe.has_mac(tile.dtype)) {
      const int node = dfg.add(NodeKind::kMac, "mac", params.pe.latency("mac"));
      dfg.connect(row, node);
      dfg.connect(b, node);
      dfg.connect(node, node, tile.interleave);
      continue;
    }
    const int product = alu(dfg, params, "mul");
    dfg.connect(row, product);
    dfg.connect(b, product);
    accumulate(dfg, params, product, "add", tile.interleave);
  }
  return dfg;
}

Dfg elementwise_chain_dfg(const DataflowParams& params, const std::vector<ChainStep>& steps) {
  Dfg dfg;
  int value = -1;
  for (const ChainStep& step : steps) {
    dfg.label += (dfg.label.empty() ? "" : "+") + step.fn;
    std::vector<int> operands;
    if (value >= 0) operands.push_back(value);
    while (static_cast<int64_t>(operands.size()) < std::max<int64_t>(step.inputs, 1)) {
      operands.push_back(load(dfg, params));
    }
    const std::vector<std::string> ops = alu_sequence(step.fn, params.pe);
    if (ops.empty()) {
      value = operands.front();
      continue;
    }
    const int first = alu(dfg, params, ops.front());
    for (int operand : operands) dfg.connect(operand, first);
    value = chain(dfg, params, first, std::vector<std::string>(ops.begin() + 1, ops.end()));
  }
  const int out = store(dfg, params);
  dfg.connect(value, out);
  return dfg;
}

Dfg row_kernel_dfg(const DataflowParams& params, const ir::Op& op, int64_t interleave) {
  Dfg dfg;
  dfg.label = ir::op_type_name(op) + " row";
  if (std::holds_alternative<ir::SoftmaxAttrs>(op.attrs)) {
    accumulate(dfg, params, load(dfg, params), "max", interleave);
    const int exp_sum = chain(dfg, params, load(dfg, params), {"sub", "exp"});
    accumulate(dfg, params, exp_sum, "add", interleave);
    alu(dfg, params, "div", 1);  // the row's reciprocal, held in a register
    const int normalised = chain(dfg, params, load(dfg, params), {"sub", "exp", "mul"});
    dfg.connect(normalised, store(dfg, params));
  } else if (const auto* norm = std::get_if<ir::NormAttrs>(&op.attrs)) {
    const bool layer = norm->kind == ir::NormKind::kLayerNorm;
    const int x = load(dfg, params);
    if (layer) accumulate(dfg, params, x, "add", interleave);
    accumulate(dfg, params, chain(dfg, params, x, {"mul"}), "add", interleave);
    chain(dfg, params, alu(dfg, params, "mul", 1), alu_sequence("rsqrt", params.pe));
    const std::vector<std::string> normalise =
        layer ? std::vector<std::string>{"sub", "mul", "mul", "add"}
              : std::vector<std::string>{"mul", "mul"};
    const int y = chain(dfg, params, load(dfg, params), normalise);
    dfg.connect(load(dfg, params), y);  // gamma (and beta) stream from a memory PE
    dfg.connect(y, store(dfg, params));
  } else if (const auto* reduce = std::get_if<ir::ReduceAttrs>(&op.attrs)) {
    const int element = chain(dfg, params, load(dfg, params), reduce_element_ops(reduce->fn));
    const int acc = accumulate(dfg, params, element, reduce_op(reduce->fn), interleave);
    dfg.connect(acc, store(dfg, params));
  } else if (const auto* pool = std::get_if<ir::PoolAttrs>(&op.attrs)) {
    const std::string op_name = pool->kind == ir::PoolKind::kMax ? "max" : "add";
    const int acc = accumulate(dfg, params, load(dfg, params), op_name, interleave);
    dfg.connect(acc, store(dfg, params));
  } else {
    dfg.connect(load(dfg, params), store(dfg, params));  // embedding rows, copies
  }
  return dfg;
}

std::vector<std::string> missing_ops(const Dfg& dfg, const DataflowParams& params) {
  std::vector<std::string> missing;
  for (const DfgNode& node : dfg.nodes) {
    if (node.kind != NodeKind::kAlu || params.pe.has(node.op)) continue;
    if (std::find(missing.begin(), missing.end(), node.op) == missing.end()) {
      missing.push_back(node.op);
    }
  }
  return missing;
}

}  // namespace polyarch::archs::dataflow
