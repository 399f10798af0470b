#include "cli/pipeline_flags.h"

#include "driver/registry_names.h"

namespace polyarch::cli {

std::string pipeline_flags_help() {
  return R"(compiler passes (an ONNX model):
  --allow-unknown   keep ONNX operators the compiler does not support as placeholders
                    (elementwise fn=unknown:<OpType>) costed by their output bytes, instead of
                    stopping; results without declared shapes take their first operand's
                    shape and type (not with run --functional)
  --precision P     the types ops compute in and store weights and KV caches in, parts
                    separated by commas: a type (fp32, fp16, bf16, int8, fp8_e4m3, fp8_e5m2,
                    fp8) or activations=TYPE; a scheme (w8a8, w4a16 = fp16 with
                    weights=int4:g128, w8a16); weights=int8|int4|fp8[:gN] (weight-only, one
                    scale per N weights); kv_cache=fp8|int8|int4; KIND=TYPE overrides, e.g.
                    bf16,softmax=bf16 (defaults: fp16/bf16 keep softmax and norm in fp32; int8
                    quantises gemm and conv2d only; fp8 runs them in fp8, the rest in bf16).
                    QDQ models' quantised convolutions and GEMMs are int8 whatever P says
  --sparsity S      weights without values (structure-only models) are N:M pruned (2:4) or of
                    density S (0.3); weights with values are measured
  --layout L        nchw, nhwc or auto (default): the target's convolution layout, from the
                    first --arch unit that runs convolutions ()" +
         driver::unit_kinds_preferring(ir::Layout::kNhwc) + ": nhwc)\n";
}

std::vector<OptionSpec> pipeline_option_specs() {
  return {{"allow-unknown", false}, {"precision"}, {"sparsity"}, {"layout"}};
}

driver::PassFlags pass_flags(const Arguments& parsed) {
  return {parsed.flag("allow-unknown"), parsed.value("precision"), parsed.value("sparsity"),
          parsed.value("layout").value_or("auto")};
}

}  // namespace polyarch::cli
