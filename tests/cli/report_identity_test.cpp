// Every shipped architecture x every shipped workload, through the real program: each run's
// report.json must equal the one recorded in tests/data/report_identity/<arch>.tsv. The record
// was written by polyarch before a restructuring of its code, with each unit's configured mapping
// (`--mapping fixed`, the only mode then); a restructuring must not change a number, so any
// difference here is a behaviour change to explain (or, for a deliberate model
// change, to re-record: see tests/data/report_identity/README.md).
//
// A report is compared by the SHA-256 of its canonical text (parsed and written back, keys in
// their order) with the keys that later versions added removed (kNewKeys) and the keys they
// renamed given back their recorded names in place (kRenamedKeys), so adding or renaming a key
// is not a difference but changing any value is. Runs that fail are recorded by exit code and the
// first line of the message. A pair whose run took longer than kRecordLimitSeconds when it was
// recorded (the 5.6e15-MAC sustained GEMM on PIM and crossbar units) is recorded as "slow" and
// not run here: the record says which pairs those are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/sha256.h"
#include "tests/support/run_polyarch.h"

namespace {

namespace fs = std::filesystem;
using polyarch::test_support::read_file;
using polyarch::test_support::run_command;

// Top-level report.json keys added after the record was made.
const std::vector<std::string> kNewKeys = {"arch", "mapping", "memory", "attention_forms"};

// Keys of ops[] entries added after the record was made, removed where they are null (where
// they say nothing happened), so that an op they describe still differs from its record.
const std::vector<std::string> kNewNullOpKeys = {"conversion"};

// Keys of the entries of a top-level array renamed after the record was made: the array, the
// current name, the recorded name.
struct RenamedKey {
  const char* array;
  const char* current;
  const char* recorded;
};
const std::vector<RenamedKey> kRenamedKeys = {{"ops", "compute_utilization", "utilization"},
                                              {"units", "busy_fraction", "utilization"}};

// `entry` with the key `from` called `to`, at the same place among its keys.
nlohmann::ordered_json with_key_renamed(const nlohmann::ordered_json& entry,
                                        const std::string& from, const std::string& to) {
  nlohmann::ordered_json renamed = nlohmann::ordered_json::object();
  for (const auto& [key, value] : entry.items()) renamed[key == from ? to : key] = value;
  return renamed;
}

constexpr int kRecordLimitSeconds = 150;

// The limit a recording applies: kRecordLimitSeconds, or POLYARCH_IDENTITY_RECORD_LIMIT_S when
// recording on a loaded machine, where a pair that takes under kRecordLimitSeconds on an idle
// one would otherwise be recorded as slow.
int record_limit_seconds() {
  const char* limit = std::getenv("POLYARCH_IDENTITY_RECORD_LIMIT_S");
  return limit != nullptr ? std::stoi(limit) : kRecordLimitSeconds;
}
const std::string kSlow = "slow";

struct RecordedRun {
  std::string exit_code;  // a number, or kSlow
  std::string digest;   // canonical report's SHA-256, or the error's first line
  std::string summary;  // latency and energy, for a person reading a failure
};

fs::path source_dir() { return fs::path(POLYARCH_SOURCE_DIR); }

fs::path record_file(const std::string& arch_stem) {
  return source_dir() / "tests/data/report_identity" / (arch_stem + ".tsv");
}

std::vector<std::string> shipped_archs() {
  std::vector<std::string> stems;
  for (const auto& entry : fs::directory_iterator(source_dir() / "configs/arch")) {
    if (entry.path().extension() == ".yaml") stems.push_back(entry.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

// Paths relative to the source tree: what a run prints or records does not depend on where the
// tree is checked out.
std::vector<std::string> shipped_workloads() {
  std::vector<std::string> workloads;
  for (const auto& entry : fs::recursive_directory_iterator(source_dir() / "workloads")) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".yaml" || extension == ".csv")) {
      workloads.push_back(fs::relative(entry.path(), source_dir()).string());
    }
  }
  std::sort(workloads.begin(), workloads.end());
  return workloads;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  std::replace(line.begin(), line.end(), '\t', ' ');
  return line;
}

std::string canonical_report(const std::string& report_text) {
  nlohmann::ordered_json report = nlohmann::ordered_json::parse(report_text);
  for (const std::string& key : kNewKeys) report.erase(key);
  if (report.contains("ops") && report.at("ops").is_array()) {
    for (nlohmann::ordered_json& op : report.at("ops")) {
      for (const std::string& key : kNewNullOpKeys) {
        if (op.is_object() && op.contains(key) && op.at(key).is_null()) op.erase(key);
      }
    }
  }
  for (const RenamedKey& rename : kRenamedKeys) {
    if (!report.contains(rename.array) || !report.at(rename.array).is_array()) continue;
    for (nlohmann::ordered_json& entry : report.at(rename.array)) {
      if (entry.is_object()) entry = with_key_renamed(entry, rename.current, rename.recorded);
    }
  }
  return report.dump(1);
}

// The program under test; POLYARCH_IDENTITY_CLI points at another build (the one a record is
// made with).
std::string program() {
  const char* other = std::getenv("POLYARCH_IDENTITY_CLI");
  return other != nullptr ? other : POLYARCH_CLI;
}

// `recording`: runs past kRecordLimitSeconds are stopped and recorded as slow.
RecordedRun run_pair(const std::string& arch_stem, const std::string& workload,
                     const fs::path& out_dir, bool recording) {
  fs::remove_all(out_dir);
  const std::string limit =
      recording ? " --max-sim-seconds " + std::to_string(record_limit_seconds()) : "";
  const std::string command = "cd '" + source_dir().string() + "' && '" + program() +
                              "' run --quiet --mapping fixed" + limit + " --arch configs/arch/" + arch_stem +
                              ".yaml --workload " + workload + " --out '" + out_dir.string() + "'";
  const polyarch::test_support::CommandOutput output = run_command(command);
  RecordedRun run;
  run.exit_code = std::to_string(output.exit_code);
  if (recording && output.output.find("exceeded --max-sim-seconds") != std::string::npos) {
    run.exit_code = kSlow;
    run.digest = "not checked: the run takes longer than " +
                 std::to_string(kRecordLimitSeconds) + " s";
    return run;
  }
  if (output.exit_code != 0) {
    run.digest = first_line(output.output);
    return run;
  }
  const std::string report_text = read_file(out_dir / "report.json");
  run.digest = polyarch::sha256_hex(canonical_report(report_text));
  const nlohmann::json summary = nlohmann::json::parse(report_text)["summary"];
  run.summary = "latency_s=" + summary["latency_s"].dump() + " energy_j=" + summary["energy_j"].dump();
  return run;
}

// workload -> run, from lines "workload<TAB>exit code<TAB>digest<TAB>summary".
std::map<std::string, RecordedRun> read_record(const fs::path& file) {
  std::map<std::string, RecordedRun> record;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    std::istringstream fields(line);
    std::string workload;
    RecordedRun run;
    std::getline(fields, workload, '\t');
    std::getline(fields, run.exit_code, '\t');
    std::getline(fields, run.digest, '\t');
    std::getline(fields, run.summary, '\t');
    record[workload] = run;
  }
  return record;
}

void write_record(const fs::path& file, const std::map<std::string, RecordedRun>& record) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file);
  out << "# workload\texit code\treport sha256 (or error)\tsummary\n";
  for (const auto& [workload, run] : record) {
    out << workload << '\t' << run.exit_code << '\t' << run.digest << '\t' << run.summary << '\n';
  }
}

class ReportIdentity : public ::testing::TestWithParam<std::string> {};

TEST_P(ReportIdentity, EveryShippedWorkloadGivesTheRecordedReport) {
  const std::string& arch_stem = GetParam();
  const fs::path out_dir =
      fs::temp_directory_path() / ("polyarch_report_identity_" + arch_stem);
  const std::vector<std::string> workloads = shipped_workloads();
  if (std::getenv("POLYARCH_UPDATE_IDENTITY") != nullptr) {
    // A pair already recorded as slow stays so without being run again: the test never checks
    // it, and running it would cost up to the limit each time.
    const std::map<std::string, RecordedRun> previous = fs::exists(record_file(arch_stem))
                                                            ? read_record(record_file(arch_stem))
                                                            : std::map<std::string, RecordedRun>{};
    std::map<std::string, RecordedRun> runs;
    for (const std::string& workload : workloads) {
      const auto before = previous.find(workload);
      runs[workload] = before != previous.end() && before->second.exit_code == kSlow
                           ? before->second
                           : run_pair(arch_stem, workload, out_dir, true);
    }
    fs::remove_all(out_dir);
    write_record(record_file(arch_stem), runs);
    GTEST_SKIP() << "recorded " << record_file(arch_stem);
  }
  const std::map<std::string, RecordedRun> recorded = read_record(record_file(arch_stem));
  ASSERT_FALSE(recorded.empty()) << "no record for " << arch_stem << " at "
                                 << record_file(arch_stem);
  for (const std::string& workload : workloads) {
    const auto found = recorded.find(workload);
    ASSERT_NE(found, recorded.end()) << workload << " on " << arch_stem << " has no record";
    if (found->second.exit_code == kSlow) continue;
    const RecordedRun run = run_pair(arch_stem, workload, out_dir, false);
    EXPECT_EQ(run.exit_code, found->second.exit_code) << workload << " on " << arch_stem;
    EXPECT_EQ(run.digest, found->second.digest)
        << workload << " on " << arch_stem << ": now " << run.summary << ", recorded "
        << found->second.summary;
  }
  fs::remove_all(out_dir);
  EXPECT_EQ(workloads.size(), recorded.size()) << "the record lists a workload no longer shipped";
}

INSTANTIATE_TEST_SUITE_P(ShippedArchs, ReportIdentity, ::testing::ValuesIn(shipped_archs()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
