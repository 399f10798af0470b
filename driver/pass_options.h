#pragma once
// The compiler-pass flags `compile` and `run` share (--allow-unknown, --precision, --sparsity,
// --layout) as the command line spells them, turned into the pipeline's options.
#include <optional>
#include <string>

#include "archs/soc/soc_config.h"
#include "compiler/lower/pipeline.h"

namespace polyarch::driver {

struct PassFlags {
  bool allow_unknown = false;
  std::optional<std::string> precision;  // e.g. "bf16,softmax=bf16"
  std::optional<std::string> sparsity;   // "2:4" or a density
  std::string layout = "auto";           // nchw, nhwc or auto
};

// The options the flags ask for; a malformed value is a bad-input error naming the flag.
// `auto` takes the preferred convolution layout of the first of `soc`'s units that runs
// convolutions, or keeps the import's NCHW without an SoC.
lower::PipelineOptions pipeline_options(const PassFlags& flags, const archs::SocConfig* soc);

// Whether the layout is left to the target (auto), which the driver loads.
bool layout_from_target(const PassFlags& flags);

}  // namespace polyarch::driver
