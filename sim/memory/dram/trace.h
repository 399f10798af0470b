#pragma once
// Memory-request traces in DRAMsim3's text format, one request per line:
//   0x<hex byte address> READ|WRITE <arrival cycle>
// The arrival cycle counts DRAM command-clock cycles (tCK) and never goes backwards. Blank
// lines and lines starting with '#' are skipped. Every error names the file and the line.
#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

namespace polyarch::sim::dram {

struct TraceRequest {
  int64_t address = 0;  // byte address
  bool is_write = false;
  int64_t arrival_cycle = 0;
  int line = 0;  // 1-based line of the trace it was read from
};

struct Trace {
  std::string file;  // as errors name it
  std::vector<TraceRequest> requests;
};

// Throws polyarch::Error (bad input) at file:line for an unparsable line or a cycle that goes
// backwards.
Trace read_dramsim3_trace(std::istream& in, const std::string& file_label);
// The same from a file; a file that cannot be opened is bad input too.
Trace read_dramsim3_trace_file(const std::filesystem::path& path);

}  // namespace polyarch::sim::dram
