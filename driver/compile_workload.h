#pragma once
// `polyarch compile`: import a workload, run the compiler's passes (the standard pipeline or a
// chosen list), and describe what comes out: the op-type tables, the per-op table, the pass
// statistics and IR dumps, and with a target the mapping every unit would choose per op.
// Everything is computed before anything is written, so a bad model fails without output.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "driver/pass_options.h"
#include "driver/search_options.h"

namespace polyarch::driver {

struct CompileRequest {
  std::filesystem::path workload;
  std::optional<std::string> passes;  // comma-separated pass names; nullopt: the standard pipeline
  std::optional<std::string> dump;    // a pass name, "import" or "all"
  PassFlags flags;
  std::optional<std::filesystem::path> arch;  // the target (layout auto, explain)
  bool explain = false;                       // needs `arch`
  SearchOptions search;                       // for explain
  bool emit_ir = false;                       // fill CompileOutcome::ir
  bool emit_json = false;                     // fill CompileOutcome::json
};

struct CompileOutcome {
  std::string graph_name;
  std::size_t imported_ops = 0;
  std::optional<std::string> functional_unavailable;  // why not; nullopt: executable
  std::string imported_types;   // op type, count and MACs of the graph as imported
  std::string passes;           // pass summary and IR dumps; empty when no pass ran
  std::string canonical_types;  // the same table after the passes
  std::string op_table;         // one row per canonical op and the totals
  std::string decisions;        // explain: every unit's option per op
  std::string ir;               // emit_ir: the compiled graph in the text IR
  std::string json;             // emit_json: pass statistics, per-op table and totals
};

CompileOutcome compile_workload(const CompileRequest& request);

}  // namespace polyarch::driver
