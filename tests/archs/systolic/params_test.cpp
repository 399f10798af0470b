#include "archs/systolic/params.h"

#include <gtest/gtest.h>

namespace polyarch::archs::systolic {
namespace {

SystolicParams parse(const std::string& text) {
  ConfigNode node = parse_config_text(text, "unit.yaml");
  MapReader reader(node);
  ResolvedKeys resolved;
  KeyReader unit(reader, systolic_keys(), resolved);
  SystolicParams params = parse_systolic_params(unit, "u");
  finish_with_table(reader, systolic_keys(), "");
  return params;
}

TEST(SystolicParams, ReadsEveryKey) {
  SystolicParams params = parse(
      "rows: 128\ncols: 64\ndataflow: is\ndtype: bf16\nacc_dtype: fp32\nclock_ghz: 1.5\n"
      "scalesim_compat: false\n"
      "buffers: {ifmap_kib: 10, filter_kib: 20, ofmap_kib: 30, double_buffered: false}\n");
  EXPECT_EQ(params.rows, 128);
  EXPECT_EQ(params.cols, 64);
  EXPECT_EQ(params.dataflow, Dataflow::kInputStationary);
  EXPECT_EQ(params.dtype, ir::DType::kBf16);
  EXPECT_EQ(params.acc_dtype, ir::DType::kFp32);
  ASSERT_TRUE(params.clock_ghz.has_value());
  EXPECT_DOUBLE_EQ(*params.clock_ghz, 1.5);
  EXPECT_FALSE(params.scalesim_compat);
  EXPECT_EQ(params.buffers.ifmap_kib, 10);
  EXPECT_EQ(params.buffers.filter_kib, 20);
  EXPECT_EQ(params.buffers.ofmap_kib, 30);
  EXPECT_FALSE(params.buffers.double_buffered);
}

TEST(SystolicParams, ReadsRowStationaryScratchpads) {
  SystolicParams defaults = parse("rows: 12\ncols: 14\ndataflow: row_stationary\n");
  EXPECT_EQ(defaults.dataflow, Dataflow::kRowStationary);
  // Eyeriss's scratchpads (JSSC 2017): filter 224, ifmap 12, psum 24 words.
  EXPECT_EQ(defaults.scratchpads.filter_words, 224);
  EXPECT_EQ(defaults.scratchpads.ifmap_words, 12);
  EXPECT_EQ(defaults.scratchpads.psum_words, 24);
  SystolicParams set = parse(
      "rows: 12\ncols: 14\ndataflow: row_stationary\n"
      "scratchpads: {filter_words: 100, ifmap_words: 6, psum_words: 8}\n");
  EXPECT_EQ(set.scratchpads.filter_words, 100);
  EXPECT_EQ(set.scratchpads.ifmap_words, 6);
  EXPECT_EQ(set.scratchpads.psum_words, 8);
}

TEST(SystolicParams, RejectsBadValuesAtTheirKey) {
  struct Case {
    const char* text;
    const char* key;
  };
  for (const Case& bad : {Case{"rows: 0\ncols: 4\ndataflow: ws\n", "rows"},
                          Case{"rows: 4\ncols: 4.5\ndataflow: ws\n", "cols"},
                          Case{"rows: 4\ncols: 4\ndataflow: xx\n", "dataflow"},
                          Case{"rows: 4\ncols: 4\ndataflow: ws\ndtype: int7\n", "dtype"},
                          Case{"rows: 4\ncols: 4\ndataflow: ws\nclock_ghz: -1\n", "clock_ghz"},
                          Case{"rows: 4\ncols: 4\ndataflow: ws\nbuffers: {ifmap_kb: 3}\n", "ifmap_kb"},
                          Case{"rows: 4\ncols: 4\ndataflow: ws\nbuffers: 7\n", "buffers"},
                          Case{"rows: 99999999\ncols: 4\ndataflow: ws\n", "rows"},
                          Case{"cols: 4\ndataflow: ws\n", "rows"},
                          Case{"rows: 4\ncols: 4\ndataflow: rowstationary\n", "dataflow"},
                          Case{"rows: 4\ncols: 4\ndataflow: row_stationary\n"
                               "scratchpads: {filter_words: 0}\n",
                               "scratchpads.filter_words"},
                          Case{"rows: 4\ncols: 4\ndataflow: row_stationary\n"
                               "scratchpads: {psum_word: 24}\n",
                               "psum_word"},
                          // Keys of the other kind of dataflow, which would change nothing.
                          Case{"rows: 4\ncols: 4\ndataflow: ws\n"
                               "scratchpads: {ifmap_words: 6}\n",
                               "scratchpads"},
                          Case{"rows: 4\ncols: 4\ndataflow: row_stationary\n"
                               "scalesim_compat: false\n",
                               "scalesim_compat"}}) {
    try {
      parse(bad.text);
      ADD_FAILURE() << "accepted: " << bad.text;
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      EXPECT_NE(std::string(error.what()).find(bad.key), std::string::npos)
          << bad.text << " -> " << error.what();
    }
  }
}

}  // namespace
}  // namespace polyarch::archs::systolic
