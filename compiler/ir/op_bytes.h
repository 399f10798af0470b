#pragma once
// An op's bytes_touched (op.h) split into what it writes and what it reads, for the compile
// report's per-op table.
#include <cstdint>

#include "compiler/ir/op.h"

namespace polyarch::ir {

struct BytesReadWritten {
  int64_t read = 0;
  int64_t written = 0;
};

// Written: the op's results (a Copy's bytes; nothing for a view); read: the rest of
// bytes_touched, so read + written == bytes_touched.
BytesReadWritten bytes_read_written(const Op& op, DType native_dtype = DType::kFp32);

// Elements the op reads (each distinct element once, weights and KV caches included) and
// writes, whatever type they are stored in; a Copy and frontend ops count none.
struct ElementsReadWritten {
  int64_t read = 0;
  int64_t written = 0;
};
ElementsReadWritten elements_read_written(const Op& op);

}  // namespace polyarch::ir
