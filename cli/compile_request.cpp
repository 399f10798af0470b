#include "cli/compile_request.h"

#include "cli/mapping_search_options.h"
#include "cli/pipeline_flags.h"

namespace polyarch::cli {

std::vector<OptionSpec> compile_option_specs() {
  std::vector<OptionSpec> specs = {{"workload"}, {"dump-ir"}, {"passes"},        {"emit-ir"},
                                   {"json"},     {"arch"},    {"explain", false}};
  for (OptionSpec& spec : mapping_search_option_specs()) specs.push_back(std::move(spec));
  for (OptionSpec& spec : pipeline_option_specs()) specs.push_back(std::move(spec));
  return specs;
}

driver::CompileRequest compile_request(const Arguments& parsed) {
  driver::CompileRequest request;
  request.workload = parsed.required("workload");
  request.passes = parsed.value("passes");
  request.dump = parsed.value("dump-ir");
  request.flags = pass_flags(parsed);
  if (auto arch = parsed.value("arch")) request.arch = *arch;
  request.explain = parsed.flag("explain");
  if (request.explain) parsed.required("arch");
  request.search = mapping_search_options(parsed);
  request.emit_ir = parsed.value("emit-ir").has_value();
  request.emit_json = parsed.value("json").has_value();
  return request;
}

}  // namespace polyarch::cli
