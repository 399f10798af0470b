#pragma once
// The compiler-pass flags `compile` and `run` share (--allow-unknown, --precision, --sparsity,
// --layout), parsed into the pipeline's options.
#include <vector>

#include "archs/soc/soc_config.h"
#include "cli/arguments.h"
#include "compiler/lower/pipeline.h"

namespace polyarch::cli {

// Option specs to append to a command's own.
std::vector<OptionSpec> pipeline_option_specs();

// The options the flags ask for; a malformed value is a bad-input error naming the flag.
// `--layout auto` (the default) takes the preferred convolution layout of the first of the
// SoC's units that runs convolutions, or keeps the import's NCHW without an SoC.
lower::PipelineOptions parse_pipeline_options(const Arguments& parsed,
                                              const archs::SocConfig* soc);

// Whether `--layout` leaves the choice to the target (auto, the default).
bool conv_layout_is_auto(const Arguments& parsed);

// Help lines describing the flags.
extern const char* const kPipelineFlagsHelp;

}  // namespace polyarch::cli
