#include "compiler/ir/ir_op_attributes_parser.h"

#include <map>
#include <set>

#include "base/checked_math.h"
#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::ir {

namespace {

// The pairs and flags of one op as written, taken out by name as the op's attributes are
// filled; whatever is left at the end was not one of them.
class WrittenAttributes {
 public:
  WrittenAttributes(TokenCursor& cursor, OpKind kind) : cursor_(cursor), kind_(kind) {
    while (cursor.peek().kind == TokenKind::kWord) {
      const Token& key = cursor.take();
      if (cursor.accept_punct('=')) {
        const Token& value = cursor.expect(TokenKind::kWord, "a value for '" + key.text + "'");
        if (key.text == "act") activation_ = parse_activation(value);
        if (!values_.emplace(key.text, value).second) twice(key);
        keys_.emplace(key.text, key);
      } else if (!flags_.emplace(key.text, key).second) {
        twice(key);
      }
    }
    end_ = cursor.peek();
  }

  int64_t integer(const std::string& key) {
    const Token& value = required(key);
    const std::optional<int64_t> number = integer_from_text(value.text);
    if (!number)
      cursor_.fail_at(value, "'" + key + "' must be an integer, not '" + value.text + "'");
    return *number;
  }

  std::string word(const std::string& key) { return required(key).text; }

  // A word that may be left out.
  std::optional<std::string> word_or_none(const std::string& key) {
    if (values_.count(key) == 0) return std::nullopt;
    return word(key);
  }

  [[noreturn]] void fail_value(const std::string& key, const std::string& expected) {
    cursor_.fail_at(keys_.at(key), "'" + key + "' must be " + expected);
  }

  // "3x3" as (3, 3).
  std::pair<int64_t, int64_t> pair(const std::string& key) {
    const Token& value = required(key);
    const std::size_t x = value.text.find('x');
    const std::optional<int64_t> first =
        x == std::string::npos ? std::nullopt : integer_from_text(value.text.substr(0, x));
    const std::optional<int64_t> second =
        x == std::string::npos ? std::nullopt : integer_from_text(value.text.substr(x + 1));
    if (!first || !second) {
      cursor_.fail_at(value, "'" + key + "' must be two integers as AxB, not '" + value.text + "'");
    }
    return {*first, *second};
  }

  // An integer that may be left out, `fallback` then.
  int64_t integer_or(const std::string& key, int64_t fallback) {
    return values_.count(key) != 0 ? integer(key) : fallback;
  }

  // A pair that may be left out, `fallback` then.
  std::pair<int64_t, int64_t> pair_or(const std::string& key,
                                      std::pair<int64_t, int64_t> fallback) {
    return values_.count(key) != 0 ? pair(key) : fallback;
  }

  bool flag(const std::string& name) { return flags_.erase(name) > 0; }

  std::optional<Activation> activation() {
    values_.erase("act");
    return activation_;
  }

  // One of `choices` given as a flag; exactly one must be.
  std::string choice(const std::vector<std::string>& choices) {
    std::string chosen;
    for (const std::string& name : choices) {
      if (flags_.count(name) == 0) continue;
      if (!chosen.empty())
        cursor_.fail_at(flags_.at(name), "'" + chosen + "' and '" + name + "' together");
      chosen = name;
    }
    if (chosen.empty()) fail_missing(choices.front() + " (or another kind)");
    flags_.erase(chosen);
    return chosen;
  }

  // Everything written was used.
  void finish(const std::string& accepted) {
    const auto& stray = !values_.empty() ? values_ : flags_;
    if (stray.empty()) return;
    // Point at the key, not its value.
    const Token& key = !values_.empty() ? keys_.at(values_.begin()->first) : flags_.begin()->second;
    cursor_.fail_at(key, "unknown attribute '" + stray.begin()->first + "' for " +
                             std::string(op_kind_name(kind_)) + " (expected " + accepted + ")");
  }

 private:
  [[noreturn]] void twice(const Token& key) {
    cursor_.fail_at(key, "attribute '" + key.text + "' is given twice");
  }

  [[noreturn]] void fail_missing(const std::string& key) {
    cursor_.fail_at(end_, std::string(op_kind_name(kind_)) + " needs '" + key + "'");
  }

  const Token& required(const std::string& key) {
    const auto found = values_.find(key);
    if (found == values_.end()) fail_missing(key + "=");
    taken_.push_back(found->second);
    values_.erase(found);
    return taken_.back();
  }

  // act=clip(max=6.0,min=0.0): a fused activation and its constants.
  Activation parse_activation(const Token& fn) {
    Activation activation{fn.text, {}};
    if (!cursor_.accept_punct('(')) return activation;
    while (!cursor_.accept_punct(')')) {
      if (!activation.params.empty()) cursor_.expect_punct(',');
      const std::string name = cursor_.expect(TokenKind::kWord, "a parameter name").text;
      cursor_.expect_punct('=');
      activation.params[name] = cursor_.expect_real("a number");
    }
    return activation;
  }

  TokenCursor& cursor_;
  OpKind kind_;
  std::map<std::string, Token> values_;
  std::map<std::string, Token> flags_;
  std::map<std::string, Token> keys_;  // the key token of each `key=value`
  std::vector<Token> taken_;
  std::optional<Activation> activation_;
  Token end_;
};

std::pair<int64_t, int64_t> rows_cols(WrittenAttributes& written) {
  const int64_t rows = written.integer("rows");
  return {rows, written.integer("cols")};
}

// block=64 with local= global= random= seed= (BigBird) or block_mask= (block_sparse_layout.h);
// nullptr without `block`.
std::shared_ptr<const BlockSparseLayout> block_sparse_layout(WrittenAttributes& written,
                                                             const AttentionAttrs& attention) {
  const int64_t block = written.integer_or("block", 0);
  if (block == 0) return nullptr;
  if (block < 0) written.fail_value("block", "a positive number of tokens");
  if (attention.s <= 0 || attention.kv_len < attention.s) {
    written.fail_value("block", "given with 0 < s <= kv_len (the queries are the last positions)");
  }
  const std::string too_large = layout_size_error(block, attention.kv_len);
  if (!too_large.empty()) written.fail_value("block", "coarser: " + too_large);
  if (const std::optional<std::string> mask = written.word_or_none("block_mask")) {
    const int64_t rows = layout_query_blocks(block, attention.s, attention.kv_len);
    const int64_t columns = position_blocks(attention.kv_len, block);
    std::optional<std::vector<uint8_t>> cells = cells_from_hex(*mask, rows, columns);
    if (!cells) {
      written.fail_value("block_mask", std::to_string(rows) + " rows of " +
                                           std::to_string(ceil_div(columns, 4)) +
                                           " hex digits joined by '.' (" + std::to_string(columns) +
                                           " key blocks)");
    }
    return std::make_shared<const BlockSparseLayout>(
        explicit_layout(block, attention.s, attention.kv_len, std::move(*cells)));
  }
  BigBirdSpec spec;
  spec.local = written.integer_or("local", 0);
  spec.global = written.integer_or("global", 0);
  spec.random = written.integer_or("random", 0);
  const int64_t seed = written.integer_or("seed", 0);
  if (spec.local < 0 || spec.global < 0 || spec.random < 0 || seed < 0) {
    written.fail_value("block", "given with local, global, random and seed >= 0");
  }
  spec.seed = static_cast<uint64_t>(seed);
  return std::make_shared<const BlockSparseLayout>(
      bigbird_layout(spec, block, attention.s, attention.kv_len, attention.causal));
}

OpAttrs build(WrittenAttributes& written, OpKind kind) {
  switch (kind) {
    case OpKind::kGemm: {
      GemmAttrs gemm{written.integer("m"), written.integer("n"), written.integer("k"),
                     written.integer("batch")};
      gemm.b_shared = !written.flag("b_per_batch");
      gemm.bias = written.flag("bias");
      gemm.activation = written.activation();
      written.finish("m n k batch b_per_batch bias act");
      return gemm;
    }
    case OpKind::kConv2d: {
      Conv2dAttrs conv;
      conv.n = written.integer("n");
      conv.c = written.integer("c");
      conv.h = written.integer("h");
      conv.w = written.integer("w");
      conv.k = written.integer("k");
      std::tie(conv.r, conv.s) = written.pair("window");
      std::tie(conv.stride_h, conv.stride_w) = written.pair("stride");
      std::tie(conv.pad_h, conv.pad_w) = written.pair("pad");
      std::tie(conv.dilation_h, conv.dilation_w) = written.pair_or("dilation", {1, 1});
      conv.groups = written.integer("groups");
      conv.bias = written.flag("bias");
      conv.activation = written.activation();
      written.finish("n c h w k window stride pad dilation groups bias act");
      return conv;
    }
    case OpKind::kAttention: {
      AttentionAttrs attention{written.integer("b"),        written.integer("h"),
                               written.integer("kv_heads"), written.integer("s"),
                               written.integer("kv_len"),   written.integer("d")};
      attention.causal = written.flag("causal");
      attention.window = written.integer_or("window", 0);
      if (const std::optional<std::string> kv = written.word_or_none("kv_dtype")) {
        attention.kv_dtype = parse_dtype(*kv);
        if (!attention.kv_dtype) written.fail_value("kv_dtype", "an element type");
      }
      attention.block_sparse = block_sparse_layout(written, attention);
      if (const std::optional<std::string> kernel = written.word_or_none("kernel")) {
        const std::optional<AttentionKernel> parsed = parse_attention_kernel(*kernel);
        if (!parsed) written.fail_value("kernel", "flash3 or flash2");
        attention.kernel = *parsed;
      }
      written.finish(
          "b h kv_heads s kv_len d causal window block block_mask local global random seed "
          "kv_dtype kernel");
      return attention;
    }
    case OpKind::kElementwise: {
      ElementwiseAttrs elementwise{written.word("fn"), written.integer("elements"),
                                   written.integer("inputs")};
      if (const std::optional<std::string> form = written.word_or_none("approximate")) {
        if (*form != "tanh") written.fail_value("approximate", "tanh");
        elementwise.approximate_tanh = true;
      }
      written.finish("fn elements inputs approximate");
      return elementwise;
    }
    case OpKind::kReduce: {
      ReduceAttrs reduce;
      reduce.fn = written.word("fn");
      std::tie(reduce.rows, reduce.cols) = rows_cols(written);
      written.finish("fn rows cols");
      return reduce;
    }
    case OpKind::kNorm: {
      NormAttrs norm;
      norm.kind = written.choice({"layernorm", "rmsnorm"}) == "rmsnorm" ? NormKind::kRmsNorm
                                                                        : NormKind::kLayerNorm;
      std::tie(norm.rows, norm.cols) = rows_cols(written);
      written.finish("layernorm|rmsnorm rows cols");
      return norm;
    }
    case OpKind::kSoftmax: {
      SoftmaxAttrs softmax;
      std::tie(softmax.rows, softmax.cols) = rows_cols(written);
      written.finish("rows cols");
      return softmax;
    }
    case OpKind::kPool: {
      PoolAttrs pool;
      const std::string pool_kind = written.choice({"max", "avg", "global"});
      pool.kind = pool_kind == "avg"      ? PoolKind::kAvg
                  : pool_kind == "global" ? PoolKind::kGlobal
                                          : PoolKind::kMax;
      pool.n = written.integer("n");
      pool.c = written.integer("c");
      pool.h = written.integer("h");
      pool.w = written.integer("w");
      std::tie(pool.r, pool.s) = written.pair("window");
      pool.stride = written.integer("stride");
      pool.pad = written.integer("pad");
      written.finish("max|avg|global n c h w window stride pad");
      return pool;
    }
    case OpKind::kEmbedding: {
      EmbeddingAttrs embedding;
      std::tie(embedding.rows, embedding.cols) = rows_cols(written);
      embedding.vocab = written.integer("vocab");
      written.finish("rows cols vocab");
      return embedding;
    }
    case OpKind::kCopy: {
      CopyAttrs copy{written.integer("bytes"), written.flag("view")};
      written.finish("bytes view");
      return copy;
    }
    case OpKind::kFrontend:
      break;
  }
  throw_runtime({}, "parse_canonical_attributes: a frontend op has no canonical attributes");
}

}  // namespace

OpAttrs parse_canonical_attributes(TokenCursor& cursor, OpKind kind) {
  WrittenAttributes written(cursor, kind);
  return build(written, kind);
}

}  // namespace polyarch::ir
