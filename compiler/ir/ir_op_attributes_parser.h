#pragma once
// Reads a canonical op's attributes in the text IR (the inverse of op_full_attributes_text):
// `key=value` pairs and flags in any order, up to the `->` before its results.
#include "compiler/ir/ir_cursor.h"
#include "compiler/ir/op.h"

namespace polyarch::ir {

// The attributes of an op of `kind` (not kFrontend). An unknown key or flag, a missing key or
// a malformed value is a bad-input error at its column naming what the op kind accepts.
OpAttrs parse_canonical_attributes(TokenCursor& cursor, OpKind kind);

}  // namespace polyarch::ir
