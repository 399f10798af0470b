// ONNX's backend node tests through the real program, each outcome held to the checked-in
// record: a test that starts passing or stops passing fails here until the record is rewritten
// (POLYARCH_RECORD_ONNX_CONFORMANCE=1), so progress is recorded and regressions are caught. No
// test may give a wrong answer: the program computes what ONNX specifies or refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/onnx_conformance/expectations.h"
#include "tests/onnx_conformance/node_test.h"
#include "tests/support/run_polyarch.h"

namespace {

namespace fs = std::filesystem;
using namespace polyarch::onnx_conformance;
using polyarch::test_support::read_file;
using polyarch::test_support::source_path;

const char* const kExpectationsFile = "tests/data/onnx_conformance/expectations.tsv";
const char* const kSummaryDocument = "docs/onnx_conformance.md";

// Debian's libonnx-testdata; POLYARCH_ONNX_NODE_TESTS points elsewhere.
fs::path node_tests_root() {
  const char* root = std::getenv("POLYARCH_ONNX_NODE_TESTS");
  return root != nullptr ? fs::path(root) : fs::path("/usr/share/libonnx-testdata/data/node");
}

bool recording() {
  const char* record = std::getenv("POLYARCH_RECORD_ONNX_CONFORMANCE");
  return record != nullptr && std::string(record) == "1";
}

// Each test is a process of its own; the workers only wait on them, so one per core keeps the
// machine busy without oversubscribing it.
Expectations run_all(const std::vector<fs::path>& dirs) {
  Expectations outcomes;
  std::mutex lock;
  std::atomic<std::size_t> next{0};
  const unsigned workers = std::max(2u, std::thread::hardware_concurrency());
  const fs::path scratch_root =
      fs::temp_directory_path() / ("polyarch_onnx_conformance_" + std::to_string(::getpid()));
  std::vector<std::thread> threads;
  for (unsigned worker = 0; worker < workers; ++worker) {
    threads.emplace_back([&, worker] {
      const fs::path scratch = scratch_root / std::to_string(worker);
      for (std::size_t i = next++; i < dirs.size(); i = next++) {
        Outcome outcome = run_node_test(dirs[i], POLYARCH_CLI, scratch);
        const std::lock_guard<std::mutex> guard(lock);
        outcomes[dirs[i].filename().string()] = std::move(outcome);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  fs::remove_all(scratch_root);
  return outcomes;
}

Expectations recorded_expectations() {
  return parse_expectations(read_file(source_path(kExpectationsFile)), kExpectationsFile);
}

void record(const Expectations& outcomes) {
  std::ofstream(source_path(kExpectationsFile)) << expectations_text(outcomes);
  const std::string document = read_file(source_path(kSummaryDocument));
  std::ofstream(source_path(kSummaryDocument))
      << with_generated_section(document, summary_markdown(outcomes));
}

TEST(OnnxConformance, EveryNodeTestHasItsRecordedOutcome) {
  const fs::path root = node_tests_root();
  if (!fs::is_directory(root)) {
    GTEST_SKIP() << root.string() << " is absent (apt-get install libonnx-testdata)";
  }
  const std::vector<fs::path> dirs = node_test_dirs(root);
  ASSERT_FALSE(dirs.empty()) << "no node tests under " << root.string();
  const auto start = std::chrono::steady_clock::now();
  const Expectations outcomes = run_all(dirs);
  std::cout << outcomes.size() << " node tests in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s\n";
  for (const auto& [test, outcome] : outcomes) {
    EXPECT_NE(outcome.status, Status::kWrong) << test << ": " << outcome.reason;
  }
  if (recording()) {
    record(outcomes);
    return;
  }
  const Expectations expected = recorded_expectations();
  int reasons_changed = 0;
  for (const auto& [test, outcome] : outcomes) {
    const auto found = expected.find(test);
    if (found == expected.end()) {
      ADD_FAILURE() << test << " is not in " << kExpectationsFile << " (now "
                    << status_name(outcome.status) << ")";
      continue;
    }
    EXPECT_EQ(status_name(outcome.status), status_name(found->second.status))
        << test << ": " << outcome.reason;
    if (outcome.reason != found->second.reason) ++reasons_changed;
  }
  for (const auto& [test, outcome] : expected) {
    EXPECT_TRUE(outcomes.count(test) > 0) << test << " is recorded but not under " << root;
  }
  if (HasFailure() || reasons_changed > 0) {
    std::cout << reasons_changed << " reason(s) differ from the record. To record these outcomes: "
              << "POLYARCH_RECORD_ONNX_CONFORMANCE=1 ctest -R OnnxConformance\n";
  }
}

TEST(OnnxConformance, RecordHasNoWrongAnswers) {
  for (const auto& [test, outcome] : recorded_expectations()) {
    EXPECT_NE(outcome.status, Status::kWrong) << test << ": " << outcome.reason;
  }
}

TEST(OnnxConformance, DocumentSummaryIsTheRecordedOnes) {
  EXPECT_EQ(generated_section(read_file(source_path(kSummaryDocument))),
            summary_markdown(recorded_expectations()))
      << kSummaryDocument << " is out of date: POLYARCH_RECORD_ONNX_CONFORMANCE=1 ctest -R "
      << "OnnxConformance rewrites it";
}

}  // namespace
