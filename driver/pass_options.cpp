#include "driver/pass_options.h"

#include "base/error.h"
#include "driver/compile_target.h"

namespace polyarch::driver {

lower::PipelineOptions pipeline_options(const PassFlags& flags, const archs::SocConfig* soc) {
  lower::PipelineOptions options;
  options.allow_unknown = flags.allow_unknown;
  if (flags.precision) options.precision = passes::parse_precision_policy(*flags.precision);
  if (flags.sparsity) options.sparsity = passes::parse_sparsity_policy(*flags.sparsity);
  if (flags.layout == "nchw") {
    options.conv_layout = ir::Layout::kNchw;
  } else if (flags.layout == "nhwc") {
    options.conv_layout = ir::Layout::kNhwc;
  } else if (flags.layout == "auto") {
    if (soc != nullptr) options.conv_layout = target_conv_layout(*soc);
  } else {
    throw_bad_input({}, "--layout " + flags.layout + ": expected nchw, nhwc or auto");
  }
  return options;
}

bool layout_from_target(const PassFlags& flags) { return flags.layout == "auto"; }

}  // namespace polyarch::driver
