#pragma once
// Shared by the libFuzzer harnesses. A bad-input polyarch::Error that says where the problem is
// (file, line, key or node) is the expected answer to garbage. Everything else is a finding:
// a crash, a hang, a sanitizer report, another exception escaping the parser (uncaught, so
// libFuzzer reports it), a runtime-kind Error, or an error without a location.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "base/error.h"

namespace polyarch::fuzz {

template <typename Parse>
int parse_expecting_only_located_errors(const uint8_t* data, std::size_t size, const Parse& parse) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    parse(bytes);
  } catch (const Error& error) {
    const bool located = !error.where().to_string().empty();
    if (error.kind() != ErrorKind::kBadInput || !located) {
      std::fprintf(stderr, "finding: %s error%s: %s\n",
                   error.kind() == ErrorKind::kBadInput ? "bad-input" : "runtime",
                   located ? "" : " without a location", error.what());
      std::abort();
    }
  }
  return 0;
}

}  // namespace polyarch::fuzz
