#include "tests/onnx_conformance/expectations.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "tests/onnx_conformance/refusal_group.h"

namespace polyarch::onnx_conformance {

namespace {

constexpr std::string_view kBegin = "<!-- summary generated from expectations.tsv: begin -->";
constexpr std::string_view kEnd = "<!-- summary generated from expectations.tsv: end -->";

// The record lists every test; the summary shows a few of each group.
constexpr std::size_t kExamplesPerGroup = 3;

std::string markdown_cell(const std::string& text) {
  std::string cell;
  for (char c : text) cell += c == '|' ? std::string("\\|") : std::string(1, c);
  return cell;
}

std::vector<std::string> tab_fields(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (std::size_t tab = line.find('\t'); tab != std::string_view::npos;
       tab = line.find('\t', start)) {
    fields.emplace_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  fields.emplace_back(line.substr(start));
  return fields;
}

}  // namespace

Expectations parse_expectations(std::string_view text, const std::string& source) {
  Expectations expectations;
  int line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string> fields = tab_fields(line);
    const std::string where = source + ":" + std::to_string(line_number) + ": ";
    if (fields.size() != 3) throw std::runtime_error(where + "expected test, status and reason");
    const std::optional<Status> status = parse_status(fields[1]);
    if (!status) throw std::runtime_error(where + "unknown status '" + fields[1] + "'");
    if (!expectations.emplace(fields[0], Outcome{*status, fields[2]}).second) {
      throw std::runtime_error(where + "test '" + fields[0] + "' is listed twice");
    }
  }
  return expectations;
}

std::string expectations_text(const Expectations& expectations) {
  std::string text =
      "# ONNX's backend node tests (libonnx-testdata) through `polyarch run --functional`:\n"
      "# test, status (pass, wrong, refused, skipped), reason. Written by\n"
      "# POLYARCH_RECORD_ONNX_CONFORMANCE=1 ctest -R OnnxConformance\n";
  for (const auto& [test, outcome] : expectations) {
    text += test + "\t" + std::string(status_name(outcome.status)) + "\t" + outcome.reason + "\n";
  }
  return text;
}

std::string summary_markdown(const Expectations& expectations) {
  std::map<Status, int> counts;
  std::map<std::string, std::vector<std::string>> refusals;  // by group
  for (const auto& [test, outcome] : expectations) {
    ++counts[outcome.status];
    if (outcome.status == Status::kRefused || outcome.status == Status::kSkipped) {
      refusals[refusal_group(outcome.reason)].push_back(test);
    }
  }
  std::string text = "| status | tests |\n|---|---:|\n";
  for (Status status : {Status::kPass, Status::kWrong, Status::kRefused, Status::kSkipped}) {
    text +=
        "| " + std::string(status_name(status)) + " | " + std::to_string(counts[status]) + " |\n";
  }
  text += "| total | " + std::to_string(expectations.size()) + " |\n\n";
  std::vector<std::pair<std::string, std::vector<std::string>>> groups(refusals.begin(),
                                                                       refusals.end());
  // Largest group first; equal sizes by reason, so the order is stable.
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  text += "| refused or skipped because | tests | for example |\n|---|---:|---|\n";
  for (const auto& [group, tests] : groups) {
    std::string examples;
    for (std::size_t i = 0; i < tests.size() && i < kExamplesPerGroup; ++i) {
      examples.append(i == 0 ? "" : ", ").append(tests[i]);
    }
    if (tests.size() > kExamplesPerGroup) examples += ", …";
    text += "| " + markdown_cell(group) + " | " + std::to_string(tests.size()) + " | " + examples +
            " |\n";
  }
  return text;
}

std::string generated_section(const std::string& document) {
  const std::size_t begin = document.find(kBegin);
  const std::size_t end = document.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return "";
  const std::size_t content = begin + kBegin.size() + 1;  // after the marker's newline
  return document.substr(content, end - content);
}

std::string with_generated_section(const std::string& document, const std::string& section) {
  const std::size_t begin = document.find(kBegin);
  const std::size_t end = document.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    return document + "\n" + std::string(kBegin) + "\n" + section + std::string(kEnd) + "\n";
  }
  return document.substr(0, begin + kBegin.size()) + "\n" + section + document.substr(end);
}

}  // namespace polyarch::onnx_conformance
