#pragma once
// trace.json: the run as a timeline in the Chrome/Perfetto trace-event JSON format
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU), which
// ui.perfetto.dev and chrome://tracing open directly. One process per SoC, one thread (track)
// per unit, one complete ("X") event per op with its metrics as arguments, and a counter track
// of DRAM bandwidth per op.
#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace polyarch::reports {

nlohmann::ordered_json trace_json(const sim::RunResult& result);

}  // namespace polyarch::reports
