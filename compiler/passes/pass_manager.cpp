#include "compiler/passes/pass_manager.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "compiler/ir/verifier.h"

namespace polyarch::passes {

bool verify_each_by_default() {
#ifdef NDEBUG
  const char* flag = std::getenv("POLYARCH_VERIFY_IR");
  return flag != nullptr && std::strcmp(flag, "1") == 0;
#else
  return true;
#endif
}

namespace {

void verify_after(const ir::Graph& graph, const std::string& pass) {
  const std::vector<std::string> problems = ir::verify_graph(graph);
  if (problems.empty()) return;
  std::string text;
  for (const std::string& problem : problems) text += "\n  " + problem;
  throw_runtime({}, "IR verifier: pass '" + pass + "' left the graph broken:" + text);
}

}  // namespace

void PassManager::add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }

std::vector<std::string> PassManager::pass_names() const {
  std::vector<std::string> names;
  for (const auto& pass : passes_) names.emplace_back(pass->name());
  return names;
}

void PassManager::dump_after(const std::string& pass) {
  const std::vector<std::string> names = pass_names();
  if (pass != "all" && std::find(names.begin(), names.end(), pass) == names.end()) {
    std::string known;
    for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
    throw_bad_input({}, "--dump-ir: no pass named '" + pass + "' (passes: " + known + ", or all)");
  }
  dump_after_ = pass;
}

std::vector<PassRecord> PassManager::run(ir::Graph& graph) const {
  std::vector<PassRecord> records;
  for (const auto& pass : passes_) {
    PassRecord record;
    record.pass = std::string(pass->name());
    record.ops_before = graph.op_count();
    record.statistics = pass->run(graph);
    record.ops_after = graph.op_count();
    if (verify_each_) verify_after(graph, record.pass);
    if (dump_after_ && (*dump_after_ == "all" || *dump_after_ == record.pass)) {
      record.ir_after = ir::print_graph(graph);
    }
    records.push_back(std::move(record));
  }
  return records;
}

std::string pass_summary(const std::vector<PassRecord>& records) {
  std::string text;
  for (const PassRecord& record : records) {
    text += record.pass + ": " + std::to_string(record.ops_before) + " -> " +
            std::to_string(record.ops_after) + " ops";
    std::string counters;
    for (const auto& [counter, value] : record.statistics.counters) {
      counters += (counters.empty() ? "" : ", ") + counter + " " + std::to_string(value);
    }
    text += (counters.empty() ? "" : " (" + counters + ")") + "\n";
  }
  return text;
}

}  // namespace polyarch::passes
