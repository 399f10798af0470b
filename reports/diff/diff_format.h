#pragma once
// Renders a `polyarch diff` result as text (terminals, CI logs), JSON (schema polyarch.diff/1,
// for tools) or Markdown (pull-request comments). Output is deterministic: ops and units sorted
// by name, numbers in fixed formats (%.6g, integers in full, changes in % with two decimals).
#include <string>
#include <vector>

#include "reports/diff/fail_rule.h"
#include "reports/diff/report_diff.h"

namespace polyarch::reports {

inline constexpr const char* kDiffSchema = "polyarch.diff/1";

enum class DiffFormat { kText, kJson, kMarkdown };

// `outcomes` empty means no --fail-on rule was given.
std::string render_diff(const ReportDiff& diff, const std::vector<RuleOutcome>& outcomes,
                        DiffFormat format);

// "FAIL latency:+5%: summary latency_s went from ... (BASE) to ... (NEW), +12.30%, more than the
// +5% allowed", or "ok   ..." when the rule held.
std::string describe_outcome(const RuleOutcome& outcome);

// "result: no regression (N checks passed)", "result: REGRESSION (F of N checks failed)" or
// "result: no --fail-on rules given".
std::string diff_verdict(const std::vector<RuleOutcome>& outcomes);

// One line per rule outcome ("FAIL latency:+5%: summary latency_s went from ... (BASE) to ...
// (NEW), +12.30%, more than the +5% allowed") and a final verdict line.
std::string describe_outcomes(const std::vector<RuleOutcome>& outcomes);

}  // namespace polyarch::reports
