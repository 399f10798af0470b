// `polyarch diff`: reads two report.json files, prints or writes their differences and checks
// the --fail-on rules.
#include "cli/cmd_diff.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "cli/arguments.h"
#include "reports/diff/diff_format.h"
#include "reports/diff/fail_rule.h"
#include "reports/diff/report_diff.h"
#include "reports/output_files.h"

namespace polyarch::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDiffHelp =
    R"(usage: polyarch diff BASE NEW [--fail-on METRIC:THRESHOLD]... [--format text|json|markdown]
                     [--out FILE]

Compares two report.json files (schema polyarch.report/1; a directory stands for its
report.json): the summary (latency_s, total_cycles, energy_j, avg_power_w, dram_bytes = read +
written, utilization = ops' utilization weighted by latency), every op matched by name (and
unit) with the same metrics, every unit matched by name, and the ops and units found in only one
of the two. Changes are NEW - BASE, absolute and in % of BASE.

options:
  --fail-on RULES   exit 3 when NEW regresses against BASE; repeatable, or comma-separated:
                      latency:+5%       NEW's latency exceeds BASE's by more than 5%
                      utilization:-2%   NEW's utilization is more than 2% below BASE's
                      energy:+0.001     NEW's energy exceeds BASE's by more than 0.001 J
                      ffn1.latency:+5%  the same for the op named ffn1
                    metrics: latency, cycles, energy, power, dram_bytes, utilization
  --format KIND     text (default), json (schema polyarch.diff/1) or markdown
  --out FILE        write the diff to FILE (atomically) and print only the rule results

exit codes: 0 no regression, 3 a --fail-on rule failed (the output names the rule and both
values), 2 bad input (unreadable or invalid report, unknown metric, malformed threshold),
1 internal error. Nothing is written on error.
)";

// A report file, or a directory holding report.json (what `polyarch run --out DIR` writes).
nlohmann::json load_report(const std::string& path) {
  fs::path file = path;
  std::error_code error;
  if (fs::is_directory(file, error)) file /= "report.json";
  std::ifstream in(file, std::ios::binary);
  if (!in) throw_bad_input({file.string(), 0, 0, ""}, "cannot open report file");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& parse_error) {
    throw_bad_input({file.string(), 0, 0, ""},
                    std::string("not a JSON file: ") + parse_error.what());
  }
}

reports::DiffFormat parse_format(const std::string& name) {
  if (name == "text") return reports::DiffFormat::kText;
  if (name == "json") return reports::DiffFormat::kJson;
  if (name == "markdown") return reports::DiffFormat::kMarkdown;
  throw_bad_input({}, "--format expects text, json or markdown, got '" + name + "'");
}

void write_output(const std::string& out, const std::string& content) {
  const fs::path file = out;
  std::error_code error;
  if (file.filename().empty() || fs::is_directory(file, error)) {
    throw_bad_input({out, 0, 0, ""}, "--out names a directory; give a file name");
  }
  const fs::path directory = file.has_parent_path() ? file.parent_path() : fs::path(".");
  reports::write_files_atomically(directory, {{file.filename().string(), content}});
}

}  // namespace

int diff_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kDiffHelp;
    return 0;
  }
  Arguments parsed(args, {{"fail-on", true, true}, {"format"}, {"out"}});
  const std::vector<std::string>& files = parsed.positionals();
  if (files.size() != 2) {
    throw_bad_input({}, "diff expects two reports, BASE and NEW, got " +
                            std::to_string(files.size()) + " (see --help)");
  }
  const reports::DiffFormat format = parse_format(parsed.value("format").value_or("text"));
  std::vector<reports::FailRule> rules;
  for (const std::string& value : parsed.values("fail-on")) {
    for (reports::FailRule& rule : reports::parse_fail_rules(value)) rules.push_back(rule);
  }
  const nlohmann::json base = load_report(files[0]);
  const nlohmann::json next = load_report(files[1]);
  const reports::ReportDiff diff = reports::diff_reports(base, next, files[0], files[1]);
  const std::vector<reports::RuleOutcome> outcomes = reports::evaluate_fail_rules(rules, diff);
  const std::string rendered = reports::render_diff(diff, outcomes, format);
  if (auto out = parsed.value("out")) {
    write_output(*out, rendered);
    std::cout << reports::describe_outcomes(outcomes) << "wrote " << *out << "\n";
  } else {
    std::cout << rendered;
  }
  return reports::any_failed(outcomes) ? kRegressionExitCode : 0;
}

}  // namespace polyarch::cli
