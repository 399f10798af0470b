#pragma once
// Renders a diff of two sweeps (sweep_diff.h) as text, Markdown (verdict and failed checks first,
// for a CI summary page) or JSON (schema polyarch.sweep-diff/1). Only failed checks are listed
// one by one in text and Markdown (a sweep of thousands of points makes thousands of checks);
// JSON carries every check. Deterministic: results in (point id, workload) order.
#include <string>
#include <vector>

#include "reports/diff/diff_format.h"
#include "sweep/sweep_diff.h"

namespace polyarch::sweep {

inline constexpr const char* kSweepDiffSchema = "polyarch.sweep-diff/1";

std::string render_sweep_diff(const SweepDiff& diff,
                              const std::vector<reports::RuleOutcome>& outcomes,
                              reports::DiffFormat format);

// The failed checks, a count of the others and the verdict, one line each (for --out).
std::string describe_sweep_outcomes(const SweepDiff& diff,
                                    const std::vector<reports::RuleOutcome>& outcomes);

}  // namespace polyarch::sweep
