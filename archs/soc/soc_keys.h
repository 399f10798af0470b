#pragma once
// The key tables of an arch file outside its units: the top level (`soc`), `memory:`,
// `thermal:` and `dvfs:`, and the lookup `polyarch validate --describe NAME` uses for them and
// every kind.
#include <string>
#include <vector>

#include "base/key_table.h"

namespace polyarch::archs {

// The top level of an arch file, `interconnect:` included.
const KeyTable& soc_keys();
// `memory:` (its `dram:` map).
const KeyTable& memory_keys();
// `thermal:`, as sim/thermal/package_config.cpp parses it (that parser is shared with `polyarch
// thermal` and reads no table; tests/archs/soc/soc_keys_test.cpp holds the two together).
const KeyTable& thermal_keys();
// `dvfs:`, as sim/dvfs/dvfs_policy.cpp parses it (held together by the same test).
const KeyTable& dvfs_keys();

// What `--describe` accepts: "soc", "memory", "thermal", "dvfs" and the unit kinds.
std::vector<std::string> key_table_names();
// The table called `name`; bad input listing the names when there is none.
const KeyTable& key_table_named(const std::string& name);

}  // namespace polyarch::archs
