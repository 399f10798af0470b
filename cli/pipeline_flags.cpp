#include "cli/pipeline_flags.h"

#include "compiler/passes/layout.h"
#include "driver/compile_target.h"

namespace polyarch::cli {

const char* const kPipelineFlagsHelp =
    R"(compiler passes (an ONNX model):
  --allow-unknown   keep ONNX operators the compiler does not support as placeholders
                    (elementwise fn=unknown:<OpType>) costed by their output bytes, instead of
                    stopping; results without declared shapes take their first operand's
                    shape and type (not with run --functional)
  --precision P     the type ops compute in: fp32, fp16, bf16 or int8, then KIND=TYPE
                    overrides, e.g. bf16,softmax=bf16 (defaults: fp16/bf16 keep softmax and
                    norm in fp32; int8 quantises gemm and conv2d only). QDQ models' quantised
                    convolutions and GEMMs are int8 whatever P says
  --sparsity S      weights without values (structure-only models) are N:M pruned (2:4) or of
                    density S (0.3); weights with values are measured
  --layout L        nchw, nhwc or auto (default): the target's convolution layout, from the
                    first --arch unit that runs convolutions (systolic, simd: nhwc)
)";

std::vector<OptionSpec> pipeline_option_specs() {
  return {{"allow-unknown", false}, {"precision"}, {"sparsity"}, {"layout"}};
}


lower::PipelineOptions parse_pipeline_options(const Arguments& parsed,
                                              const archs::SocConfig* soc) {
  lower::PipelineOptions options;
  options.allow_unknown = parsed.flag("allow-unknown");
  if (auto text = parsed.value("precision")) {
    options.precision = passes::parse_precision_policy(*text);
  }
  if (auto text = parsed.value("sparsity")) {
    options.sparsity = passes::parse_sparsity_policy(*text);
  }
  const std::string layout = parsed.value("layout").value_or("auto");
  if (layout == "nchw") {
    options.conv_layout = ir::Layout::kNchw;
  } else if (layout == "nhwc") {
    options.conv_layout = ir::Layout::kNhwc;
  } else if (layout == "auto") {
    if (soc != nullptr) options.conv_layout = driver::target_conv_layout(*soc);
  } else {
    throw_bad_input({}, "--layout " + layout + ": expected nchw, nhwc or auto");
  }
  return options;
}

bool conv_layout_is_auto(const Arguments& parsed) {
  return parsed.value("layout").value_or("auto") == "auto";
}

}  // namespace polyarch::cli
