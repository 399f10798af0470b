#pragma once
// How a canonical op's attributes read in IR dumps, cache keys and the compile table.
#include <string>

#include "compiler/ir/op.h"

namespace polyarch::ir {

// "m=128 n=768 k=768 batch=1 bias", "stride=2x2 pad=3x3 groups=1", "fn=add elements=98304
// inputs=2", ...; an imported node's attributes as `name=value` pairs.
std::string op_attributes_text(const OpAttrs& attrs);

// What the text IR prints: op_attributes_text plus a convolution's "n= c= h= w= k= window=RxS"
// and a pool's "n= c= h= w=", every attribute the op needs to read back.
std::string op_full_attributes_text(const OpAttrs& attrs);

}  // namespace polyarch::ir
