#pragma once
// Runs passes in order, recording ops before and after each and the IR after the ones asked.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/passes/pass.h"

namespace polyarch::passes {

struct PassRecord {
  std::string pass;
  std::size_t ops_before = 0;
  std::size_t ops_after = 0;
  PassStatistics statistics;
  std::optional<std::string> ir_after;  // print_graph text when a dump was asked for
};

class PassManager {
 public:
  void add(std::unique_ptr<Pass> pass);

  // Dump the IR after the pass named `pass`, or after every pass for "all". An unknown name is
  // a bad-input error listing the passes.
  void dump_after(const std::string& pass);

  std::vector<std::string> pass_names() const;

  // Runs every pass on the graph in order.
  std::vector<PassRecord> run(ir::Graph& graph) const;

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
  std::optional<std::string> dump_after_;
};

// "fold-constants: 755 -> 410 ops (folded 300, removed 45)": one line per record.
std::string pass_summary(const std::vector<PassRecord>& records);

}  // namespace polyarch::passes
