#pragma once
// Every compiler pass by name: what `compile --passes a,b,c` runs, what `compile --help` lists,
// and what the standard pipeline is built from. An explicit list (no static
// self-registration), in the standard pipeline's order.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/lower/pipeline.h"
#include "compiler/passes/pass.h"

namespace polyarch::passes {

struct PassEntry {
  std::string_view name;         // Pass::name() of what `make` returns
  std::string_view description;  // one line for --help
  std::function<std::unique_ptr<Pass>(const lower::PipelineOptions&)> make;
};

const std::vector<PassEntry>& pass_registry();

// The registered pass called `name`, configured by `options`. An unknown name is a bad-input
// error listing the registered names, with the nearest spelling when one is close.
std::unique_ptr<Pass> make_pass(std::string_view name, const lower::PipelineOptions& options);

// "fold-constants,dce" as its names in order; an empty entry or an unknown name is a
// bad-input error (`flag` names the option in the message).
std::vector<std::string> parse_pass_list(const std::string& text, const std::string& flag);

// "  name  description" lines, one per registered pass, for --help.
std::string pass_registry_help();

}  // namespace polyarch::passes
