#pragma once
// The checked-in record of every node test's outcome (tests/data/onnx_conformance/
// expectations.tsv: test, status, reason per line), and the summary docs/onnx_conformance.md
// shows of it.
#include <map>
#include <string>
#include <string_view>

#include "tests/onnx_conformance/node_test.h"

namespace polyarch::onnx_conformance {

using Expectations = std::map<std::string, Outcome>;  // by test name

// Lines "test<TAB>status<TAB>reason"; '#' starts a comment line. A malformed line or an unknown
// status throws std::runtime_error naming `source` and the line.
Expectations parse_expectations(std::string_view text, const std::string& source);
std::string expectations_text(const Expectations& expectations);

// Markdown: the count of tests per status, and the refusals grouped by reason with the tests
// of each group.
std::string summary_markdown(const Expectations& expectations);

// The part of a document between the generated-summary markers, and the document with that
// part replaced; a document without the markers gets them appended.
std::string generated_section(const std::string& document);
std::string with_generated_section(const std::string& document, const std::string& section);

}  // namespace polyarch::onnx_conformance
