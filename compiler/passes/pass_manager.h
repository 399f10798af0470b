#pragma once
// Runs passes in order, recording ops before and after each and the IR after the ones asked.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Named counters are in `statistics`; no timings, so that records (and `compile --json`) are
// the same on every run.
struct PassRecord {
  std::string pass;
  std::size_t ops_before = 0;
  std::size_t ops_after = 0;
  PassStatistics statistics;
  std::optional<std::string> ir_after;  // print_graph text when a dump was asked for
};

// Whether the IR verifier (ir/verifier.h) runs after every pass: always in builds without
// NDEBUG, and in release builds when tests ask or POLYARCH_VERIFY_IR is set to 1.
bool verify_each_by_default();

class PassManager {
 public:
  void add(std::unique_ptr<Pass> pass);

  // After each pass, verify the graph; a broken invariant is an internal error naming the pass
  // that broke it.
  void verify_each(bool enabled) { verify_each_ = enabled; }

  // Dump the IR after the pass named `pass`, or after every pass for "all". An unknown name is
  // a bad-input error listing the passes.
  void dump_after(const std::string& pass);

  std::vector<std::string> pass_names() const;

  // Runs every pass on the graph in order.
  std::vector<PassRecord> run(ir::Graph& graph) const;

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
  std::optional<std::string> dump_after_;
  bool verify_each_ = verify_each_by_default();
};

// "fold-constants: 755 -> 410 ops (folded 300, removed 45)": one line per record.
std::string pass_summary(const std::vector<PassRecord>& records);

}  // namespace polyarch::passes
