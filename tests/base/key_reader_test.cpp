// Reading a section through its key table: each read notes what its key resolved to, and the
// notes come back nested by path in the table's order, whatever order the parser read them in.
#include "base/key_reader.h"

#include <gtest/gtest.h>

#include "base/key_specs.h"
#include "tests/base/error_capture.h"

namespace polyarch {
namespace {

const KeyTable& probe_keys() {
  static const KeyTable table = {
      "probe",
      "a section for tests",
      {int_key("rows", "", kRequired, 1, 100, "rows"),
       number_key("clock_ghz", "GHz", "SoC clock", 0.1, 10.0, "own clock"),
       map_key("buffer", "{}", "a buffer"), int_key("buffer.kib", "KiB", "8", 1, 1024, "size"),
       bool_key("buffer.double_buffered", true, "two halves"),
       choice_key("mode", "fast", {"fast", "slow"}, "mode")}};
  return table;
}

// Reads `text` as the probe section, buffer first: the reverse of the table's order.
nlohmann::ordered_json described(const std::string& text) {
  const ConfigNode node = parse_config_text(text, "probe.yaml");
  MapReader map(node);
  ResolvedKeys resolved;
  KeyReader reader(map, probe_keys(), resolved);
  KeyReader buffer = reader.nested_or_defaults("buffer");
  buffer.read_int("kib");
  buffer.read_bool("double_buffered");
  buffer.finish();
  reader.read_choice("mode");
  reader.read_optional_number("clock_ghz");
  const int64_t rows = reader.read_int("rows");
  reader.note_derived("rows", "cells", rows * 2);
  finish_with_table(map, probe_keys(), "");
  return resolved.json(probe_keys());
}

TEST(KeyReader, NotesComeBackInTableOrderNestedByPath) {
  EXPECT_EQ(described("rows: 4\nbuffer: {kib: 64, double_buffered: false}\nmode: slow\n").dump(),
            R"({"rows":4,"cells":8,"clock_ghz":null,"buffer":{"kib":64,"double_buffered":false},)"
            R"("mode":"slow"})");
}

TEST(KeyReader, AnAbsentMapResolvesToItsKeysDefaults) {
  EXPECT_EQ(described("rows: 2\nclock_ghz: 1.5\n").dump(),
            R"({"rows":2,"cells":4,"clock_ghz":1.5,"buffer":{"kib":8,"double_buffered":true},)"
            R"("mode":"fast"})");
}

TEST(KeyReader, KeysNothingWasNotedForAreLeftOut) {
  ResolvedKeys resolved;
  resolved.set("buffer.kib", 16);
  EXPECT_EQ(resolved.json(probe_keys()).dump(), R"({"buffer":{"kib":16}})");
}

TEST(KeyReader, ErrorsNameTheValuesLineAndTheNestedKey) {
  const std::string range = testing::error_text([] { described("rows: 4\nbuffer: {kib: 0}\n"); });
  EXPECT_NE(range.find("probe.yaml:2:"), std::string::npos) << range;
  EXPECT_NE(range.find("buffer.kib"), std::string::npos) << range;
  const std::string misspelt = testing::error_text([] { described("rows: 4\nbuffer: {kb: 2}\n"); });
  EXPECT_NE(misspelt.find("unknown key 'kb'; did you mean 'kib'?"), std::string::npos) << misspelt;
}

}  // namespace
}  // namespace polyarch
