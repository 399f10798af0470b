#include "cli/run_request.h"

#include "base/error.h"
#include "cli/mapping_search_options.h"
#include "cli/pipeline_flags.h"
#include "cli/resource_limits.h"
#include "reports/csv_report.h"
#include "reports/html/report_html.h"
#include "reports/trace_json.h"

namespace polyarch::cli {

std::vector<OptionSpec> run_option_specs() {
  std::vector<OptionSpec> specs = {{"arch"},
                                   {"workload"},
                                   {"out"},
                                   {"seed"},
                                   {"power-window-us"},
                                   {"quiet", false},
                                   {"only-supported", false},
                                   {"pipeline-batches"},
                                   {"max-sim-seconds"},
                                   {"max-memory"},
                                   {"functional", false},
                                   {"input", true, true},
                                   {"dump-tensor", true, true}};
  for (OptionSpec& spec : mapping_search_option_specs()) specs.push_back(std::move(spec));
  for (OptionSpec& spec : pipeline_option_specs()) specs.push_back(std::move(spec));
  return specs;
}

uint64_t parse_seed(const std::optional<std::string>& text) {
  if (!text) return 0;
  try {
    std::size_t consumed = 0;
    unsigned long long seed = std::stoull(*text, &consumed);
    if (consumed == text->size() && (*text)[0] != '-') return seed;
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "--seed expects a non-negative integer, got '" + *text + "'");
}

driver::RunRequest run_request(const Arguments& parsed) {
  driver::RunRequest request;
  request.arch_path = parsed.required("arch");
  request.workload_path = parsed.required("workload");
  request.seed = parse_seed(parsed.value("seed"));
  request.only_supported = parsed.flag("only-supported");
  request.mapping_search = driver::search_policy(mapping_search_options(parsed), request.seed);
  // `--layout auto` leaves the layout to the target, which the driver loads.
  const driver::PassFlags flags = pass_flags(parsed);
  request.compile = driver::pipeline_options(flags, nullptr);
  request.conv_layout_from_target = driver::layout_from_target(flags);
  if (auto window = parsed.value("power-window-us")) {
    request.power_window_s = parse_positive("power-window-us", *window, 1e-6);
  }
  if (auto batches = parsed.value("pipeline-batches")) {
    const double count = parse_positive("pipeline-batches", *batches, 1.0);
    if (count != static_cast<double>(static_cast<int>(count)) || count > 4096) {
      throw_bad_input(
          {}, "--pipeline-batches expects an integer from 1 to 4096, got '" + *batches + "'");
    }
    request.micro_batches = static_cast<int>(count);
  }
  return request;
}

std::vector<reports::NamedContent> run_output_files(const sim::RunResult& result,
                                                    const nlohmann::ordered_json& report) {
  return {{"report.json", report.dump(2) + "\n"},
          {"ops.csv", reports::ops_csv(result)},
          {"trace.json", reports::trace_json(result).dump() + "\n"},
          {"report.html", reports::report_html(report)}};
}

}  // namespace polyarch::cli
