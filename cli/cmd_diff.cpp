// `polyarch diff`: reads two report.json files (or two sweeps' results), prints or writes their
// differences and checks the --fail-on rules.
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
#include "sweep/sweep_diff.h"
#include "sweep/sweep_diff_format.h"

namespace polyarch::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDiffHelp =
    R"(usage: polyarch diff BASE NEW [--fail-on METRIC:THRESHOLD]... [--format text|json|markdown]
                     [--out FILE] [--allow-different]

Compares two report.json files (schema polyarch.report/1; a directory stands for its
report.json): the summary (latency_s, total_cycles, energy_j, avg_power_w, dram_bytes = read +
written, utilization = ops' utilization weighted by latency), every op matched by name (and
unit) with the same metrics, every unit matched by name, and the ops and units found in only one
of the two. Changes are NEW - BASE, absolute and in % of BASE. Reports of different
architectures or workloads (provenance arch_name, workload_name) are refused unless
--allow-different: a regression gate compares like with like.

Or compares two sweeps: each a results database (results.sqlite, a shard's database, or the
sweep's output directory) or its points.csv. Results are matched by point id and workload;
every rule is checked on every matched result and on the best value each sweep's Pareto front
reaches per workload; the points that left or joined the front are listed. A result of BASE
missing from NEW (a point that failed) fails the gate when rules are given. Points whose
parameters differ between the sweeps are refused unless --allow-different.

options:
  --fail-on RULES   exit 3 when NEW regresses against BASE; repeatable, or comma-separated.
                    A threshold has a sign and a unit: % of BASE's value, or an amount in one
                    of the metric's units (a bare number is refused):
                      latency:+5%       NEW's latency exceeds BASE's by more than 5%
                      latency:+2ms      ... by more than 2 ms (s, ms, us, ns)
                      utilization:-2%   NEW's utilization is more than 2% below BASE's
                      utilization:-3pp  ... more than 3 percentage points below
                      energy:+1mJ       NEW's energy exceeds BASE's by more than 1 mJ
                                        (J, mJ, uJ, nJ, pJ)
                      power:+100mW      (W, mW, kW)    dram_bytes:+1MiB (B, kB, MB, GB, KiB,
                      cycles:+1000cycles                              MiB, GiB)
                      ffn1.latency:+5%  the same for the op named ffn1 (reports only)
                    metrics: latency, cycles, energy, power, dram_bytes, utilization
  --format KIND     text (default), json (schema polyarch.diff/1, polyarch.sweep-diff/1 for
                    sweeps) or markdown (the verdict and failed checks first, for a CI summary)
  --out FILE        write the diff to FILE (atomically) and print only the rule results
  --allow-different compare reports of different architectures or workloads, or sweeps whose
                    points differ in their parameters

exit codes: 0 no regression, 3 a --fail-on rule failed (the output names the rule and both
values), 2 bad input (unreadable or invalid report, unknown metric, malformed threshold,
different architectures), 1 internal error. Nothing is written on error.
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

// Reports of different architectures or workloads diff fine but gate nothing meaningful.
void require_same_subject(const reports::ReportDiff& diff) {
  if (diff.base_arch == diff.next_arch && diff.base_workload == diff.next_workload) return;
  throw_bad_input({diff.next_label, 0, 0, "provenance"},
                  "BASE " + diff.base_label + " is arch '" + diff.base_arch + "' on workload '" +
                      diff.base_workload + "', NEW is arch '" + diff.next_arch + "' on workload '" +
                      diff.next_workload +
                      "'; a regression gate compares the same architecture and workload (pass "
                      "--allow-different to compare them anyway)");
}

struct Rendered {
  std::string full;      // the whole diff in the chosen format
  std::string outcomes;  // the rule results, printed when the diff goes to --out
  bool regressed = false;
};

Rendered diff_reports_at(const std::vector<std::string>& files,
                         const std::vector<reports::FailRule>& rules, reports::DiffFormat format,
                         bool allow_different) {
  const nlohmann::json base = load_report(files[0]);
  const nlohmann::json next = load_report(files[1]);
  const reports::ReportDiff diff = reports::diff_reports(base, next, files[0], files[1]);
  if (!allow_different) require_same_subject(diff);
  const std::vector<reports::RuleOutcome> outcomes = reports::evaluate_fail_rules(rules, diff);
  return {reports::render_diff(diff, outcomes, format), reports::describe_outcomes(outcomes),
          reports::any_failed(outcomes)};
}

Rendered diff_sweeps_at(const std::vector<std::string>& files,
                        const std::vector<reports::FailRule>& rules, reports::DiffFormat format,
                        bool allow_different) {
  const sweep::SweepResults base = sweep::load_sweep_results(files[0]);
  const sweep::SweepResults next = sweep::load_sweep_results(files[1]);
  const sweep::SweepDiff diff = sweep::diff_sweeps(base, next, allow_different);
  const std::vector<reports::RuleOutcome> outcomes = sweep::evaluate_sweep_rules(rules, diff);
  return {sweep::render_sweep_diff(diff, outcomes, format),
          sweep::describe_sweep_outcomes(diff, outcomes), sweep::sweep_regressed(outcomes, diff)};
}

}  // namespace

int diff_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kDiffHelp;
    return 0;
  }
  Arguments parsed(args,
                   {{"fail-on", true, true}, {"format"}, {"out"}, {"allow-different", false}});
  const std::vector<std::string>& files = parsed.positionals();
  if (files.size() != 2) {
    throw_bad_input({}, "diff expects two reports or two sweeps, BASE and NEW, got " +
                            std::to_string(files.size()) + " (see --help)");
  }
  const reports::DiffFormat format = parse_format(parsed.value("format").value_or("text"));
  std::vector<reports::FailRule> rules;
  for (const std::string& value : parsed.values("fail-on")) {
    for (reports::FailRule& rule : reports::parse_fail_rules(value)) rules.push_back(rule);
  }
  const bool base_is_sweep = sweep::is_sweep_results(files[0]);
  if (base_is_sweep != sweep::is_sweep_results(files[1])) {
    throw_bad_input({files[base_is_sweep ? 1 : 0], 0, 0, ""},
                    "diff compares two reports or two sweeps; this is not a " +
                        std::string(base_is_sweep ? "sweep (results.sqlite or points.csv)"
                                                  : "report (report.json)") +
                        " like " + files[base_is_sweep ? 0 : 1]);
  }
  const bool allow_different = parsed.flag("allow-different");
  const Rendered rendered = base_is_sweep ? diff_sweeps_at(files, rules, format, allow_different)
                                          : diff_reports_at(files, rules, format, allow_different);
  if (auto out = parsed.value("out")) {
    write_output(*out, rendered.full);
    std::cout << rendered.outcomes << "wrote " << *out << "\n";
  } else {
    std::cout << rendered.full;
  }
  return rendered.regressed ? kRegressionExitCode : 0;
}

}  // namespace polyarch::cli
