// Malformed inputs through the real polyarch program, one table row each: arch YAML, layer lists,
// SCALE-Sim CSV, sweep files, ONNX models and .npy inputs that are truncated, mistyped, out of
// range, duplicated, cyclic, binary or empty. Every one must end with exit code 2 (not a crash, not
// an internal error), a message naming the file and, where the format has them, the line:col and
// the key or node; and an --out directory with nothing written in it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;
using namespace std::string_literals;

// How the bad file reaches polyarch.
enum class Use {
  kRunArch,          // run --arch FILE --workload <good layer list> --out DIR
  kRunWorkload,      // run --arch <good arch> --workload FILE --out DIR
  kValidate,         // validate FILE
  kCompile,          // compile --workload FILE
  kSweep,            // sweep FILE --out DIR
  kFunctionalInput,  // run --functional --workload <tiny_cnn.onnx> --input FILE --out DIR
};

struct MalformedCase {
  std::string name;  // the test's name
  Use use;
  std::string file;                   // written into the scratch directory, then handed to polyarch
  std::string content;                // its bytes
  std::vector<std::string> expected;  // each must appear in the error: location, key, gist
  std::vector<std::pair<std::string, std::string>> other_files = {};  // e.g. `base:` targets
};

// --- Protobuf wire format, enough to write small ONNX models by hand ----------------------------
// (https://protobuf.dev/programming-guides/encoding/; field numbers from onnx/onnx.proto).
std::string varint(uint64_t value) {
  std::string bytes;
  do {
    bytes += static_cast<char>((value & 0x7f) | (value > 0x7f ? 0x80 : 0));
    value >>= 7;
  } while (value != 0);
  return bytes;
}
std::string number_field(int field, uint64_t value) { return varint(field << 3) + varint(value); }
std::string bytes_field(int field, const std::string& bytes) {
  return varint(field << 3 | 2) + varint(bytes.size()) + bytes;
}

// ValueInfoProto of a float tensor; a dimension < 0 is written as the symbolic `batch`.
std::string float_value(const std::string& name, const std::vector<int64_t>& dims) {
  std::string shape;
  for (int64_t dim : dims) {
    shape += bytes_field(1, dim < 0 ? bytes_field(2, "batch") : number_field(1, dim));
  }
  const std::string tensor_type = number_field(1, 1) + bytes_field(2, shape);  // 1: FLOAT
  return bytes_field(1, name) + bytes_field(2, bytes_field(1, tensor_type));
}
std::string node(const std::string& op_type, const std::vector<std::string>& inputs,
                 const std::vector<std::string>& outputs, const std::string& name) {
  std::string bytes;
  for (const std::string& input : inputs) bytes += bytes_field(1, input);
  for (const std::string& output : outputs) bytes += bytes_field(2, output);
  return bytes + bytes_field(3, name) + bytes_field(4, op_type);
}
// GraphProto fields: node 1, name 2, initializer 5, input 11, output 12.
std::string graph(const std::string& nodes, const std::string& extra = "") {
  return bytes_field(2, "g") + nodes + bytes_field(11, float_value("x", {1, 4})) +
         bytes_field(12, float_value("y", {1, 4})) + extra;
}
// ModelProto: ir_version 1, graph 7, opset_import 8 (version 2 of the default domain).
std::string model(const std::string& graph_bytes, int64_t opset = 17) {
  return number_field(1, 8) + bytes_field(7, graph_bytes) + bytes_field(8, number_field(2, opset));
}
// TensorProto: dims 1, data_type 2, name 8, external_data 13 (key 1, value 2), data_location 14.
std::string initializer(const std::vector<uint64_t>& dims, const std::string& rest) {
  std::string bytes;
  for (uint64_t dim : dims) bytes += number_field(1, dim);
  return bytes_field(5, bytes + number_field(2, 1) + bytes_field(8, "w") + rest);
}
std::string add_with_weight(const std::string& weight) {
  return model(graph(bytes_field(1, node("Add", {"x", "w"}, {"y"}, "add")), weight));
}
std::string external_entry(const std::string& key, const std::string& value) {
  return bytes_field(13, bytes_field(1, key) + bytes_field(2, value));
}

std::string first_bytes(const std::string& relative, std::size_t count) {
  return read_file(source_path(relative)).substr(0, count);
}

// "a0: &a0 [x, x, ...]" and nine levels more of ten aliases each: 10^10 nodes once expanded.
std::string alias_bomb() {
  // Built with append(): GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 9; ++level) {
    const std::string name = std::to_string(level);
    const std::string previous = std::string("*a").append(std::to_string(level - 1));
    text.append("a").append(name).append(": &a").append(name).append(" [").append(previous);
    for (int i = 1; i < 10; ++i) text.append(", ").append(previous);
    text.append("]\n");
  }
  return text + "layers: *a9\n";
}

const std::string kArchHead = "name: x\nclock_ghz: 1\nmemory: {dram: {bandwidth_gbps: 1}}\n";
const std::string kUnit = "  - {name: a, kind: systolic, rows: 4, cols: 4, dataflow: os}\n";
const std::string kConvHeader =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
    "Strides,\n";
const std::string kSweepHead = "base: arch.yaml\nparameters:\n  units.mxu.rows: [8, 16]\n";

std::vector<MalformedCase> arch_cases() {
  return {
      {"ArchNegativeClock",
       Use::kRunArch,
       "a.yaml",
       "name: x\nclock_ghz: -1\nmemory: {dram: {bandwidth_gbps: 1}}\nunits:\n" + kUnit,
       {"a.yaml:2:12", "clock_ghz", "out of range"}},
      {"ArchClockNotANumber",
       Use::kRunArch,
       "a.yaml",
       "name: x\nclock_ghz: fast\nmemory: {dram: {bandwidth_gbps: 1}}\nunits:\n" + kUnit,
       {"a.yaml:2:12", "clock_ghz", "expected a number"}},
      {"ArchClockNan",
       Use::kRunArch,
       "a.yaml",
       "name: x\nclock_ghz: .nan\nmemory: {dram: {bandwidth_gbps: 1}}\nunits:\n" + kUnit,
       {"a.yaml:2:12", "clock_ghz"}},
      {"ArchZeroRows",
       Use::kRunArch,
       "a.yaml",
       kArchHead + "units:\n  - {name: a, kind: systolic, rows: 0, cols: 4, dataflow: os}\n",
       {"a.yaml:5:37", "units[0].rows", "out of range"}},
      {"ArchRowsPast64Bits",
       Use::kRunArch,
       "a.yaml",
       kArchHead + "units:\n  - {name: a, kind: systolic, rows: 99999999999999999999, cols: 4, "
                   "dataflow: os}\n",
       {"a.yaml:5:37", "units[0].rows", "expected an integer"}},
      {"ArchHugeArray",
       Use::kRunArch,
       "a.yaml",
       kArchHead +
           "units:\n  - {name: a, kind: systolic, rows: 1000000, cols: 1000000, dataflow: os}\n",
       {"a.yaml:5:37", "units[0].rows", "out of range"}},
      {"ArchUnknownKeySuggestsSpelling",
       Use::kRunArch,
       "a.yaml",
       kArchHead +
           "units:\n  - {name: a, kind: systolic, rows: 4, cols: 4, dataflow: os, colour: red}\n",
       {"a.yaml:5:71", "units[0].colour", "did you mean 'cols'"}},
      {"ArchDuplicateUnitNames",
       Use::kRunArch,
       "a.yaml",
       kArchHead + "units:\n" + kUnit + kUnit,
       {"a.yaml:6:5", "units[1]", "duplicate unit name 'a'"}},
      {"ArchDuplicateKey",
       Use::kRunArch,
       "a.yaml",
       "name: x\nclock_ghz: 1\nclock_ghz: 2\nmemory: {dram: {bandwidth_gbps: 1}}\nunits:\n" + kUnit,
       {"a.yaml:3:1", "duplicate key 'clock_ghz'"}},
      {"ArchMissingMemory",
       Use::kRunArch,
       "a.yaml",
       "name: x\nclock_ghz: 1\nunits:\n" + kUnit,
       {"a.yaml:1:1", "missing required key 'memory'"}},
      {"ArchUnitsIsAMap",
       Use::kRunArch,
       "a.yaml",
       kArchHead + "units: {name: a}\n",
       {"a.yaml:4:8", "units", "expected a list of units"}},
      {"ArchUnknownUnitKind",
       Use::kRunArch,
       "a.yaml",
       kArchHead + "units:\n  - {name: a, kind: gpu}\n",
       {"a.yaml:5:21", "units[0].kind", "'gpu'"}},
      {"ArchTechnologyIsAList",
       Use::kRunArch,
       "a.yaml",
       kArchHead + "technology: [28nm]\nunits:\n" + kUnit,
       {"a.yaml:4:13", "technology", "got a list"}},
      {"ArchEmptyFile", Use::kRunArch, "a.yaml", "", {"a.yaml", "expected a map"}},
      {"ArchTruncatedMidFlowMap",
       Use::kRunArch,
       "a.yaml",
       "name: x\nclock_ghz: 1\nmemory:\n  dram: {bandwidth_gbps: 1, lat",
       {"a.yaml:4", "invalid YAML"}},
      {"ArchUnclosedFlowSequence",
       Use::kRunArch,
       "a.yaml",
       "name: x\nclock_ghz: [1\n",
       {"a.yaml:3:1", "invalid YAML"}},
      {"ArchInvalidUtf8",
       Use::kRunArch,
       "a.yaml",
       "name: \xff\xfe\n",
       {"a.yaml:1:7", "not valid UTF-8"}},
      {"ArchBinaryGarbage",
       Use::kRunArch,
       "a.yaml",
       "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x02\0"s,
       {"a.yaml:1:1", "not valid UTF-8"}},
      {"ArchTwoDocuments",
       Use::kRunArch,
       "a.yaml",
       kArchHead + "units:\n" + kUnit + "---\nx: 1\n",
       {"a.yaml", "a single YAML document"}},
      {"ArchNestedDeeperThan64",
       Use::kRunArch,
       "a.yaml",
       "name: " + std::string(100, '[') + std::string(100, ']') + "\n",
       {"a.yaml:1:", "nesting is deeper than 64 levels"}},
      {"ArchIncludesItself",
       Use::kRunArch,
       "a.yaml",
       "base: a.yaml\nname: x\n",
       {"a.yaml:1:7", "base", "cycle"}},
      {"ArchIncludeCycleOfTwo",
       Use::kRunArch,
       "a.yaml",
       "base: b.yaml\nname: x\n",
       {"b.yaml:1:7", "base", "cycle"},
       {{"b.yaml", "base: a.yaml\nclock_ghz: 1\n"}}},
      {"ArchMissingBaseFile",
       Use::kRunArch,
       "a.yaml",
       "base: nowhere.yaml\nname: x\n",
       {"a.yaml:1:7", "base", "nowhere.yaml' not found"}},
      {"ArchBaseIsNotAFileName",
       Use::kRunArch,
       "a.yaml",
       "base: [a, b]\nname: x\n",
       {"a.yaml:1:7", "base", "expected a file name"}},
      {"ArchAliasBomb",
       Use::kValidate,
       "a.yaml",
       alias_bomb(),
       {"a.yaml:", "more than 1000000 nodes"}},
      {"ArchAliasNestsDeeperThan64",
       Use::kValidate,
       "a.yaml",
       "a: &a " + std::string(60, '[') + std::string(60, ']') + "\nb: [[[[[[[[*a]]]]]]]]\n",
       {"a.yaml:2:", "b[0]", "nesting is deeper than 64 levels"}},
  };
}

// A bool .npy of rows x columns zeros (numpy.lib.format 1.0): a block mask of the wrong size.
std::string bool_npy(int rows, int columns) {
  std::string header = "{'descr': '|b1', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(columns) + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  return "\x93NUMPY\x01"s + '\0' + static_cast<char>(header.size()) + '\0' + header +
         std::string(static_cast<std::size_t>(rows * columns), '\0');
}

std::vector<MalformedCase> layer_list_cases() {
  const auto gemm = [](const std::string& keys) {
    return "layers:\n  - {name: a, op: gemm, " + keys + "}\n";
  };
  const std::string attention = "layers:\n  - {name: a, op: attention, h: 2, s: 64, d: 8, ";
  return {
      {"LayersBlockMaskOfTheWrongSize",
       Use::kRunWorkload,
       "w.yaml",
       attention + "block: 16, block_mask: mask.npy}\n",
       {"w.yaml:2:", "layers[0].block_mask", "mask.npy", "is 2 x 4; the op needs 4 x 4"},
       {{"mask.npy", bool_npy(2, 4)}}},
      {"LayersBlockMaskMissing",
       Use::kRunWorkload,
       "w.yaml",
       attention + "block: 16, block_mask: absent.npy}\n",
       {"w.yaml:2:", "layers[0].block_mask", "absent.npy"}},
      {"LayersBlockSparseUnknownKey",
       Use::kRunWorkload,
       "w.yaml",
       attention + "block_sparse: {block: 16, locals: 3}}\n",
       {"w.yaml:2:", "layers[0].block_sparse.locals", "unknown key 'locals'"}},
      {"LayersNegativeSize",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: -5, n: 4, k: 4"),
       {"w.yaml:2:28", "layers[0].m", "out of range"}},
      {"LayersZeroSize",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: 0, n: 4, k: 4"),
       {"w.yaml:2:28", "layers[0].m", "out of range"}},
      {"LayersMacsOverflow64Bits",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: 1099511627776, n: 1099511627776, k: 1099511627776"),
       {"w.yaml:2:5", "op 'a'", "64-bit overflow"}},
      {"LayersFractionalSize",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: 4.5, n: 4, k: 4"),
       {"w.yaml:2:28", "layers[0].m", "expected an integer"}},
      {"LayersSizeIsAList",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: [4], n: 4, k: 4"),
       {"w.yaml:2:28", "layers[0].m", "got a list"}},
      {"LayersMissingKey",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: 4, n: 4"),
       {"w.yaml:2:5", "layers[0]", "missing required key 'k'"}},
      {"LayersUnknownKey",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: 4, n: 4, k: 4, q: 1"),
       {"w.yaml:2:46", "layers[0].q", "unknown key 'q'"}},
      {"LayersDuplicateNames",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: 4, n: 4, k: 4") + "  - {name: a, op: gemm, m: 4, n: 4, k: 4}\n",
       {"w.yaml:3:12", "layers[1].name", "duplicate layer name 'a'"}},
      {"LayersEmptyList",
       Use::kRunWorkload,
       "w.yaml",
       "layers: []\n",
       {"w.yaml:1:9", "layers", "empty"}},
      {"LayersNotAList",
       Use::kRunWorkload,
       "w.yaml",
       "layers: 5\n",
       {"w.yaml:1:9", "layers", "expected a list"}},
      {"LayersItemNotAMap",
       Use::kRunWorkload,
       "w.yaml",
       "layers:\n  - 5\n",
       {"w.yaml:2:5", "layers[0]", "expected a map"}},
      {"LayersUnknownOp",
       Use::kRunWorkload,
       "w.yaml",
       "layers:\n  - {name: a, op: fft, m: 4}\n",
       {"w.yaml:2:19", "layers[0].op", "'fft'"}},
      {"LayersMisspelledTopKey",
       Use::kRunWorkload,
       "w.yaml",
       "layerz:\n  - {name: a, op: gemm, m: 4, n: 4, k: 4}\n",
       {"w.yaml:2:3", "layerz", "did you mean 'layers'"}},
      {"LayersUnknownDtype",
       Use::kRunWorkload,
       "w.yaml",
       gemm("m: 4, n: 4, k: 4, dtype: int3"),
       {"w.yaml:2:50", "layers[0].dtype", "'int3'"}},
      {"LayersFilterLargerThanInput",
       Use::kRunWorkload,
       "w.yaml",
       "layers:\n  - {name: a, op: conv2d, c: 3, h: 4, w: 4, k: 8, r: 9, s: 3}\n",
       {"w.yaml:2:54", "layers[0].r", "larger than the padded input"}},
      {"LayersGroupsDoNotDivideChannels",
       Use::kRunWorkload,
       "w.yaml",
       "layers:\n  - {name: a, op: conv2d, c: 3, h: 4, w: 4, k: 8, r: 3, s: 3, groups: 2}\n",
       {"w.yaml:2:71", "layers[0].groups", "not divisible"}},
      {"LayersZeroStride",
       Use::kRunWorkload,
       "w.yaml",
       "layers:\n  - {name: a, op: conv2d, c: 3, h: 4, w: 4, k: 8, r: 3, s: 3, stride: 0}\n",
       {"w.yaml:2:71", "layers[0].stride", "out of range"}},
      {"LayersTruncatedFlowMap",
       Use::kRunWorkload,
       "w.yaml",
       "layers:\n  - {name: a, op: gemm, m: 4, n: 4, k: 4\n",
       {"w.yaml:3:1", "invalid YAML"}},
      {"LayersInvalidUtf8",
       Use::kValidate,
       "w.yaml",
       "layers:\n  - {name: caf\xe9}\n",
       {"w.yaml:2:15", "not valid UTF-8"}},
      {"LayersAliasToUnknownAnchor",
       Use::kValidate,
       "w.yaml",
       "layers: [*nowhere]\n",
       {"w.yaml:1:10", "anchor is not defined"}},
  };
}

std::vector<MalformedCase> scalesim_cases() {
  return {
      {"CsvEmptyFile", Use::kRunWorkload, "t.csv", "", {"t.csv", "empty"}},
      {"CsvHeaderOnly", Use::kRunWorkload, "t.csv", kConvHeader, {"t.csv:1", "no layers"}},
      {"CsvTruncatedRow",
       Use::kRunWorkload,
       "t.csv",
       kConvHeader + "c1, 8, 8, 3",
       {"t.csv:2", "Filter Width", "expected 8"}},
      {"CsvNegativeWidth",
       Use::kRunWorkload,
       "t.csv",
       kConvHeader + "c1, 8, -8, 3, 3, 3, 8, 1,\n",
       {"t.csv:2:7", "IFMAP Width", "must be positive"}},
      {"CsvWordForNumber",
       Use::kRunWorkload,
       "t.csv",
       kConvHeader + "c1, 8, 8, 3, 3, three, 8, 1,\n",
       {"t.csv:2:16", "Channels", "'three'"}},
      {"CsvNumberPast64Bits",
       Use::kRunWorkload,
       "t.csv",
       "Layer, M, N, K,\ng1, 99999999999999999999, 4, 2,\n",
       {"t.csv:2:4", "M", "expected an integer"}},
      {"CsvZeroGemmSize",
       Use::kRunWorkload,
       "t.csv",
       "Layer, M, N, K,\ng1, 0, 4, 2,\n",
       {"t.csv:2:4", "M", "must be positive"}},
      {"CsvEmptyLayerName",
       Use::kRunWorkload,
       "t.csv",
       "Layer, M, N, K,\n, 4, 4, 2,\n",
       {"t.csv:2:1", "Layer", "name is empty"}},
      {"CsvGemmMacsOverflow",
       Use::kRunWorkload,
       "t.csv",
       "Layer, M, N, K,\ng1, 9223372036854775807, 9223372036854775807, 2,\n",
       {"t.csv:2", "g1", "64-bit overflow"}},
      {"CsvDepthwiseFilterCountOverflow",
       Use::kRunWorkload,
       "t.csv",
       kConvHeader + "DP1, 8, 8, 3, 3, 4000000000000, 4000000000000, 1,\n",
       {"t.csv:2:", "Num Filter", "64-bit overflow"}},
      {"CsvHugeStrideOverflowsPadding",
       Use::kRunWorkload,
       "t.csv",
       kConvHeader + "c1, 8, 8, 3, 3, 3, 8, 9223372036854775807,\n",
       {"t.csv:2", "c1", "64-bit overflow computing padded height"}},
      {"CsvBinaryGarbage",
       Use::kValidate,
       "t.csv",
       "\x7f\x45LF\x02\x01\x01\0\0\0,\xff\n\x01,\x02"s,
       {"t.csv:2", "expected 8"}},
  };
}

std::vector<MalformedCase> sweep_cases() {
  const std::string workloads = "workloads: [w.yaml]\n";
  return {
      {"SweepParameterWithoutValues",
       Use::kSweep,
       "s.yaml",
       "base: arch.yaml\nparameters:\n  units.mxu.rows: []\n" + workloads,
       {"s.yaml:3:19", "parameters.units.mxu.rows", "at least one value"}},
      {"SweepParameterOfUnknownUnit",
       Use::kSweep,
       "s.yaml",
       "base: arch.yaml\nparameters:\n  units.nope.rows: [8]\n" + workloads,
       {"s.yaml:3:20", "parameters.units.nope.rows", "no 'nope'"}},
      {"SweepNegativeValue",
       Use::kSweep,
       "s.yaml",
       "base: arch.yaml\nparameters:\n  units.mxu.rows: [8, -4]\n" + workloads,
       {"s.yaml:3:23", "parameters.units.mxu.rows[1]", "out of range"}},
      {"SweepMissingWorkloadFile",
       Use::kSweep,
       "s.yaml",
       kSweepHead + "workloads: [none.yaml]\n",
       {"s.yaml:4:13", "workloads[0]", "does not exist"}},
      {"SweepMissingBaseArch",
       Use::kSweep,
       "s.yaml",
       "base: none.yaml\nparameters:\n  units.mxu.rows: [8]\n" + workloads,
       {"s.yaml:1:7", "base", "does not exist"}},
      {"SweepBaseArchNameTooLong",  // found by fuzz_sweep_yaml: an uncaught filesystem_error
       Use::kSweep,
       "s.yaml",
       "base: " + std::string(300, 'b') + ".yaml\nparameters:\n  units.mxu.rows: [8]\n" + workloads,
       {"s.yaml:1:7", "base", "does not exist"}},
      {"SweepMissingWorkloads",
       Use::kSweep,
       "s.yaml",
       kSweepHead,
       {"s.yaml:1:1", "missing required key 'workloads'"}},
      {"SweepConstraintSyntax",
       Use::kSweep,
       "s.yaml",
       kSweepHead + workloads + "constraints:\n  - rows * / cols\n",
       {"s.yaml:6:12", "constraints[0]", "unexpected '/'"}},
      {"SweepConstraintDividesByZero",
       Use::kSweep,
       "s.yaml",
       kSweepHead + workloads + "constraints:\n  - rows / 0 > 1\n",
       {"s.yaml:6:5", "constraints[0]", "division by zero"}},
      {"SweepConstraintNestedTooDeep",
       Use::kSweep,
       "s.yaml",
       kSweepHead + workloads + "constraints:\n  - \"" + std::string(100000, '(') + "rows" +
           std::string(100000, ')') + " > 1\"\n",
       {"s.yaml:6:", "constraints[0]", "nested deeper than 64 levels"}},
      {"SweepConstraintMinusChain",
       Use::kSweep,
       "s.yaml",
       kSweepHead + workloads + "constraints:\n  - \"" + std::string(100000, '-') + "rows > 1\"\n",
       {"s.yaml:6:", "constraints[0]", "nested deeper than 64 levels"}},
      {"SweepConstraintTooLong",
       Use::kSweep,
       "s.yaml",
       [&] {
         std::string sum = "rows";
         for (int i = 0; i < 100000; ++i) sum += "+rows";
         return kSweepHead + workloads + "constraints:\n  - " + sum + " > 1\n";
       }(),
       {"s.yaml:6:", "constraints[0]", "more than 1000 operators"}},
      {"SweepTooManyPoints",
       Use::kSweep,
       "s.yaml",
       "base: arch.yaml\nparameters:\n"
       "  units.mxu.rows: {from: 1, to: 60000, step: 1}\n"
       "  units.mxu.cols: {from: 1, to: 60000, step: 1}\n" +
           workloads,
       {"s.yaml:3:3", "parameters", "3600000000 points"}},
      {"SweepRangeTooLong",
       Use::kSweep,
       "s.yaml",
       "base: arch.yaml\nparameters:\n  units.mxu.rows: {from: 1, to: 1000000000000, step: 1}\n" +
           workloads,
       {"s.yaml:3:19", "parameters.units.mxu.rows", "more than 100000"}},
      {"SweepNegativeSamples",
       Use::kSweep,
       "s.yaml",
       kSweepHead + workloads + "sampling: {method: random, samples: -1}\n",
       {"s.yaml:5:37", "sampling.samples", "out of range"}},
      {"SweepUnknownObjective",
       Use::kSweep,
       "s.yaml",
       kSweepHead + workloads + "objectives: {speed: min}\n",
       {"s.yaml:5:21", "objectives.speed", "unknown metric 'speed'",
        "(valid: total_cycles, latency_s, energy_j, avg_power_w, dram_bytes_read, "
        "dram_bytes_written, area_mm2)"}},
      {"SweepZipOfUnequalLengths",
       Use::kSweep,
       "s.yaml",
       kSweepHead + workloads + "zip:\n  - units.mxu.cols: [8, 16]\n    units.mxu.dataflow: [os]\n",
       {"s.yaml:7:25", "zip[0].units.mxu.dataflow", "equal lengths"}},
  };
}

std::vector<MalformedCase> onnx_cases() {
  const std::string relu = bytes_field(1, node("Relu", {"x"}, {"y"}, "r"));
  return {
      {"OnnxEmptyFile", Use::kCompile, "m.onnx", "", {"m.onnx", "the file is empty"}},
      {"OnnxTruncated",
       Use::kCompile,
       "m.onnx",
       first_bytes("tests/data/onnx/tiny_cnn.onnx", 14000),
       {"m.onnx", "not an ONNX model"}},
      {"OnnxTextFile",
       Use::kCompile,
       "m.onnx",
       "name: not a model\n",
       {"m.onnx", "not an ONNX model"}},
      {"OnnxBadProtobufBytes",
       Use::kValidate,
       "m.onnx",
       "\x08\x08\x3a\xff\xff\xff\xff\x0f\x01"s,
       {"m.onnx", "protobuf data is malformed"}},
      {"OnnxWithoutGraph",
       Use::kCompile,
       "m.onnx",
       number_field(1, 8) + bytes_field(8, number_field(2, 17)),
       {"m.onnx", "it has no graph"}},
      {"OnnxUnsupportedOpset",
       Use::kCompile,
       "m.onnx",
       model(graph(relu), 22),
       {"m.onnx", "opset_import", "opset 22"}},
      {"OnnxNodeInputNobodyProduces",
       Use::kCompile,
       "m.onnx",
       model(graph(bytes_field(1, node("Relu", {"nowhere"}, {"y"}, "r")))),
       {"m.onnx", "graph.node[0] 'r' (Relu)", "'nowhere'"}},
      {"OnnxTwoProducersOfOneTensor",
       Use::kCompile,
       "m.onnx",
       model(graph(relu + bytes_field(1, node("Neg", {"x"}, {"y"}, "n")))),
       {"m.onnx", "graph.node[1] 'n' (Neg)", "already defined"}},
      {"OnnxCycle",
       Use::kCompile,
       "m.onnx",
       model(graph(bytes_field(1, node("Add", {"x", "b"}, {"a"}, "p")) +
                   bytes_field(1, node("Relu", {"a"}, {"b"}, "q")) +
                   bytes_field(1, node("Relu", {"a"}, {"y"}, "o")))),
       {"m.onnx", "cycle"}},
      {"OnnxSymbolicInputDimension",
       Use::kCompile,
       "m.onnx",
       model(bytes_field(2, "g") + relu + bytes_field(11, float_value("x", {-1, 4})) +
             bytes_field(12, float_value("y", {1, 4}))),
       {"m.onnx", "graph.input[0]", "symbolic dimension 'batch'"}},
      {"OnnxInitializerSizeOverflow",
       Use::kCompile,
       "m.onnx",
       add_with_weight(initializer({uint64_t{1} << 40, uint64_t{1} << 40}, "")),
       {"m.onnx", "graph.initializer[0]", "64-bit overflow"}},
      {"OnnxInitializerNegativeDimension",
       Use::kCompile,
       "m.onnx",
       add_with_weight(initializer({static_cast<uint64_t>(-4)}, "")),
       {"m.onnx", "graph.initializer[0]", "negative dimension"}},
      {"OnnxExternalDataLengthPastTheFile",
       Use::kCompile,
       "m.onnx",
       // The model file itself as the weights file, with a length of a petabyte.
       add_with_weight(initializer({4}, external_entry("location", "m.onnx") +
                                            external_entry("length", "1000000000000000") +
                                            number_field(14, 1))),
       {"m.onnx", "graph.initializer[0]", "ends before offset"}},
  };
}

// A .npy file: magic, version 1.0, the header's length and the header, then `data`.
std::string npy(const std::string& header, const std::string& data) {
  std::string bytes = "\x93NUMPY\x01"s + '\0';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + data;
}
std::string npy_header(const std::string& descr, const std::string& shape,
                       const std::string& fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': (" + shape +
         "), }\n";
}

// tiny_cnn's input is float32 [1,3,32,32]: 3072 elements, 12288 bytes.
std::vector<MalformedCase> npy_cases() {
  const std::string input_bytes(12288, '\0');
  const std::string good_header = npy_header("<f4", "1, 3, 32, 32");
  return {
      {"NpyEmptyFile", Use::kFunctionalInput, "x.npy", "", {"x.npy", "magic"}},
      {"NpyWrongMagic", Use::kFunctionalInput, "x.npy", "PK\x03\x04 not numpy", {"x.npy", "magic"}},
      {"NpyTruncatedHeader",
       Use::kFunctionalInput,
       "x.npy",
       npy(good_header, input_bytes).substr(0, 30),
       {"x.npy", "header runs past the end"}},
      {"NpyTruncatedData",
       Use::kFunctionalInput,
       "x.npy",
       npy(good_header, input_bytes.substr(0, 1000)),
       {"x.npy", "holds 1000 data bytes", "need 12288"}},
      {"NpyHeaderWithoutShape",
       Use::kFunctionalInput,
       "x.npy",
       npy("{'descr': '<f4', 'fortran_order': False, }\n", input_bytes),
       {"x.npy", "header has no 'shape'"}},
      {"NpyShapeNotATuple",
       Use::kFunctionalInput,
       "x.npy",
       npy(npy_header("<f4", "1, three"), input_bytes),
       {"x.npy", "not a tuple of sizes"}},
      {"NpyFortranOrder",
       Use::kFunctionalInput,
       "x.npy",
       npy(npy_header("<f4", "1, 3, 32, 32", "True"), input_bytes),
       {"x.npy", "Fortran-order"}},
      {"NpyBigEndian",
       Use::kFunctionalInput,
       "x.npy",
       npy(npy_header(">f4", "1, 3, 32, 32"), input_bytes),
       {"x.npy", "element type '>f4'"}},
      {"NpyComplexType",
       Use::kFunctionalInput,
       "x.npy",
       npy(npy_header("<c8", "1, 3, 32, 32"), input_bytes),
       {"x.npy", "element type '<c8'"}},
      {"NpyShapeOverflows",
       Use::kFunctionalInput,
       "x.npy",
       npy(npy_header("<f4", "4294967296, 4294967296"), ""),
       {"x.npy", "too large"}},
      {"NpyWrongShapeForInput",
       Use::kFunctionalInput,
       "x.npy",
       npy(npy_header("<f4", "1, 3072"), input_bytes),
       {"graph input", "[1,3,32,32]", "[1,3072]"}},
      {"NpyIntegersForFloatInput",
       Use::kFunctionalInput,
       "x.npy",
       npy(npy_header("<i8", "1, 3, 32, 32"), input_bytes + input_bytes),
       {"x.npy", "holds int64"}},
  };
}

// gtest prints a failing case's parameter: its name, not its bytes.
void PrintTo(const MalformedCase& c, std::ostream* out) { *out << c.name; }

std::vector<MalformedCase> all_cases() {
  std::vector<MalformedCase> all;
  for (auto group : {arch_cases(), layer_list_cases(), scalesim_cases(), sweep_cases(),
                     onnx_cases(), npy_cases()}) {
    all.insert(all.end(), group.begin(), group.end());
  }
  return all;
}

class MalformedInputTest : public polyarch::test_support::ScratchDirTest,
                           public ::testing::WithParamInterface<MalformedCase> {
 protected:
  void SetUp() override {
    // ScratchDirTest names the directory after the test, but parameterised names hold '/'.
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');
    dir_ = fs::temp_directory_path() / ("polyarch_MalformedInput_" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("arch.yaml",
          "name: small\nclock_ghz: 1.0\nmemory:\n  dram: {bandwidth_gbps: 0, latency_ns: 0}\n"
          "units:\n  - {name: mxu, kind: systolic, rows: 32, cols: 32, dataflow: os}\n");
    write("w.yaml", "layers:\n  - {name: proj, op: gemm, m: 64, n: 64, k: 100}\n");
  }

  // Binary-safe, unlike ScratchDirTest::write's text stream.
  void write_bytes(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << bytes;
  }

  std::string arguments(const MalformedCase& c) const {
    const std::string file = path(c.file);
    const std::string out = " --out " + path("out");
    switch (c.use) {
      case Use::kRunArch:
        return "run --quiet --arch " + file + " --workload " + path("w.yaml") + out;
      case Use::kRunWorkload:
        return "run --quiet --arch " + path("arch.yaml") + " --workload " + file + out;
      case Use::kValidate:
        return "validate " + file;
      case Use::kCompile:
        return "compile --workload " + file;
      case Use::kSweep:
        return "sweep " + file + out;
      case Use::kFunctionalInput:
        return "run --quiet --functional --workload " +
               source_path("tests/data/onnx/tiny_cnn.onnx") + " --input " + file + out;
    }
    return "";
  }
};

TEST_P(MalformedInputTest, ExitsTwoWithLocatedMessageAndWritesNothing) {
  const MalformedCase& c = GetParam();
  write_bytes(c.file, c.content);
  for (const auto& [name, content] : c.other_files) write_bytes(name, content);

  const CommandOutput result = run_polyarch(arguments(c));
  // -1 means polyarch died of a signal (a crash, a sanitizer abort).
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("polyarch: error: "), std::string::npos) << result.output;
  for (const std::string& fragment : c.expected) {
    EXPECT_NE(result.output.find(fragment), std::string::npos)
        << "missing '" << fragment << "' in:\n"
        << result.output;
  }
  EXPECT_TRUE(!fs::exists(dir_ / "out") || fs::is_empty(dir_ / "out"))
      << "files were written to --out";
}

INSTANTIATE_TEST_SUITE_P(Cases, MalformedInputTest, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<MalformedCase>& info) {
                           return info.param.name;
                         });

TEST(MalformedInputTable, HasAtLeastFortyCasesWithUniqueNames) {
  const std::vector<MalformedCase> cases = all_cases();
  EXPECT_GE(cases.size(), 40u);
  std::set<std::string> names;
  for (const MalformedCase& c : cases) EXPECT_TRUE(names.insert(c.name).second) << c.name;
}

}  // namespace
