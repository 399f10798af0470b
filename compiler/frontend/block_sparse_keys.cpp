#include "compiler/frontend/block_sparse_keys.h"

#include <filesystem>
#include <limits>

#include "base/error.h"
#include "compiler/interp/npy_io.h"

namespace polyarch::frontend {

namespace {

constexpr int64_t kMaxBlock = int64_t{1} << 30;
constexpr int64_t kMaxBlockCount = int64_t{1} << 20;

// The mask file's cells, checked against the layout's rows and columns.
std::vector<uint8_t> read_mask_file(const ConfigNode& key, int64_t rows, int64_t columns) {
  const std::filesystem::path named = key.scalar();
  const std::filesystem::path path =
      named.is_absolute() ? named : std::filesystem::path(key.where().file).parent_path() / named;
  const auto fail = [&](const std::string& why) {
    throw_bad_input(key.where(), "block_mask '" + path.string() + "': " + why);
  };
  interp::NpyArray array;
  try {
    array = interp::read_npy(path);
  } catch (const Error& error) {
    fail(error.message());  // the reader names the file; this names the key too
  }
  const bool integral = array.dtype == ir::DType::kBool || array.dtype == ir::DType::kInt8 ||
                        array.dtype == ir::DType::kUint8 || array.dtype == ir::DType::kInt32 ||
                        array.dtype == ir::DType::kInt64;
  if (!integral) {
    fail("holds " + std::string(ir::dtype_name(array.dtype)) + "; a bool or integer array");
  }
  const interp::Shape& shape = array.tensor.shape;
  if (shape.size() != 2 || shape[0] != rows || shape[1] != columns) {
    std::string dims;
    for (int64_t dim : shape) dims += (dims.empty() ? "" : " x ") + std::to_string(dim);
    fail("is " + (shape.empty() ? std::string("a scalar") : dims) + "; the op needs " +
         std::to_string(rows) + " x " + std::to_string(columns) + " (query blocks x key blocks)");
  }
  std::vector<uint8_t> cells;
  cells.reserve(array.tensor.values.size());
  for (float value : array.tensor.values) cells.push_back(value != 0.0f ? 1 : 0);
  return cells;
}

}  // namespace

std::optional<BigBirdKey> read_bigbird_key(MapReader& owner) {
  const ConfigNode* node = owner.optional("block_sparse");
  if (node == nullptr) return std::nullopt;
  MapReader pattern(*node);
  BigBirdKey key;
  key.block = pattern.required_int("block", 1, kMaxBlock);
  key.spec.local = pattern.optional_int("local", 0, 0, kMaxBlockCount);
  key.spec.global = pattern.optional_int("global", 0, 0, kMaxBlockCount);
  key.spec.random = pattern.optional_int("random", 0, 0, kMaxBlockCount);
  key.spec.seed = static_cast<uint64_t>(
      pattern.optional_int("seed", 0, 0, std::numeric_limits<int64_t>::max()));
  pattern.finish();
  return key;
}

std::shared_ptr<const ir::BlockSparseLayout> read_block_sparse_keys(
    MapReader& layer, const ir::AttentionAttrs& attention) {
  const bool bigbird = layer.has("block_sparse");
  const bool mask = layer.has("block_mask");
  if (!bigbird && !mask) return nullptr;
  const ConfigNode& key = layer.required(bigbird ? "block_sparse" : "block_mask");
  if (bigbird && mask) {
    throw_bad_input(key.where(), "give block_sparse or block_mask, not both");
  }
  if (attention.window > 0) {
    throw_bad_input(key.where(),
                    "a block-sparse pattern and a sliding window together are not defined "
                    "(give one of them)");
  }
  if (attention.s > attention.kv_len) {
    throw_bad_input(key.where(),
                    "a block-sparse pattern needs the queries to be the last s of "
                    "the kv_len positions: s=" +
                        std::to_string(attention.s) +
                        " exceeds kv_len=" + std::to_string(attention.kv_len));
  }
  const int64_t block = bigbird ? MapReader(key).required_int("block", 1, kMaxBlock)
                                : layer.required_int("block", 1, kMaxBlock);
  const std::string too_large = ir::layout_size_error(block, attention.kv_len);
  if (!too_large.empty()) throw_bad_input(key.where(), too_large);
  if (bigbird) {
    const BigBirdKey given = *read_bigbird_key(layer);
    return std::make_shared<const ir::BlockSparseLayout>(ir::bigbird_layout(
        given.spec, given.block, attention.s, attention.kv_len, attention.causal));
  }
  const int64_t rows = ir::layout_query_blocks(block, attention.s, attention.kv_len);
  const int64_t columns = ir::position_blocks(attention.kv_len, block);
  return std::make_shared<const ir::BlockSparseLayout>(ir::explicit_layout(
      block, attention.s, attention.kv_len, read_mask_file(key, rows, columns)));
}

}  // namespace polyarch::frontend
