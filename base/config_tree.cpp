// YAML text -> ConfigNode, through yaml-cpp's event parser rather than YAML::Node: events carry
// the mark of every node, and building the tree ourselves lets us reject duplicate keys (which
// YAML::Load keeps silently), over-deep nesting before anything recurses on the tree, and
// alias bombs ("billion laughs": a few lines of anchors that expand to 10^9 nodes).
#include "base/config_tree.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace polyarch {

namespace {

constexpr std::size_t kMaxDepth = 64;
// Far above any real arch, workload or sweep file (a 10,000-layer list has ~100,000 nodes).
constexpr std::size_t kMaxNodes = 1000000;

struct TreeSize {
  std::size_t nodes = 0;
  std::size_t height = 0;  // a scalar has height 1
};

// Recursion is safe: every tree the builder holds is at most kMaxDepth + 1 high.
TreeSize tree_size(const ConfigNode& node) {
  TreeSize size{1, 1};
  const auto add_child = [&](const ConfigNode& child) {
    const TreeSize child_size = tree_size(child);
    size.nodes += child_size.nodes;
    size.height = std::max(size.height, child_size.height + 1);
  };
  if (node.is_map()) {
    for (const auto& entry : node.entries()) add_child(entry.second);
  } else if (node.is_sequence()) {
    for (const ConfigNode& item : node.items()) add_child(item);
  }
  return size;
}

// Length of the UTF-8 sequence starting at text[pos], or 0 if it is malformed (overlong forms,
// surrogates and code points past U+10FFFF included, per RFC 3629).
std::size_t utf8_sequence_length(const std::string& text, std::size_t pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (pos + length > text.size()) return 0;
  if (byte(pos + 1) < low || byte(pos + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(pos + i) < 0x80 || byte(pos + i) > 0xBF) return 0;
  }
  return length;
}

void require_utf8(const std::string& text, const std::string& file_label) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t length = utf8_sequence_length(text, pos);
    if (length == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[pos]));
      SourceLocation where{file_label, line, static_cast<int>(pos - line_start) + 1, ""};
      throw_bad_input(where, "file is not valid UTF-8: byte " + std::string(hex) + " on line " +
                                 std::to_string(line));
    }
    if (text[pos] == '\n') {
      ++line;
      line_start = pos + 1;
    }
    pos += length;
  }
}

std::string join_key_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

// Builds a ConfigNode tree from parser events, one open container per stack frame.
class TreeBuilder : public YAML::EventHandler {
 public:
  explicit TreeBuilder(std::string file_label) : file_label_(std::move(file_label)) {}

  std::optional<ConfigNode> take_root() { return std::move(root_); }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    count_nodes(1, mark);
    complete(ConfigNode::make_null(at(mark)), anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto found = anchors_.find(anchor);
    if (found == anchors_.end()) throw_bad_input(at(mark), "alias to an unknown anchor");
    // An alias copies the anchored tree: it counts as that many nodes, that deep, here.
    const TreeSize size = tree_size(found->second);
    if (stack_.size() + size.height > kMaxDepth + 1) {
      throw_bad_input(at(mark), "nesting is deeper than " + std::to_string(kMaxDepth) +
                                    " levels (through an alias)");
    }
    count_nodes(size.nodes, mark);
    complete(found->second, 0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    // Tag "?" marks a plain (unquoted) scalar: only those spell null; "~" in quotes is text.
    const bool is_null =
        tag == "?" && (value == "~" || value == "null" || value == "Null" || value == "NULL");
    count_nodes(1, mark);
    complete(is_null ? ConfigNode::make_null(at(mark)) : ConfigNode::make_scalar(value, at(mark)),
             anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(ConfigNode::make_sequence(at(mark)), anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(ConfigNode::make_map(at(mark)), anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    ConfigNode node;
    YAML::anchor_t anchor = 0;
    std::optional<std::string> pending_key;  // a map's key whose value has not been seen yet
    SourceLocation key_where;
  };

  // The key path the next completed node will have.
  std::string next_child_path() const {
    if (stack_.empty()) return "";
    const Frame& top = stack_.back();
    if (top.node.is_sequence()) {
      return top.node.where().key_path + "[" + std::to_string(top.node.items().size()) + "]";
    }
    if (top.pending_key) return join_key_path(top.node.where().key_path, *top.pending_key);
    return top.node.where().key_path;
  }

  SourceLocation at(const YAML::Mark& mark) const {
    SourceLocation where{file_label_, 0, 0, next_child_path()};
    if (!mark.is_null()) {
      where.line = mark.line + 1;
      where.column = mark.column + 1;
    }
    return where;
  }

  void count_nodes(std::size_t added, const YAML::Mark& mark) {
    node_count_ += added;
    if (node_count_ > kMaxNodes) {
      throw_bad_input(at(mark), "the document has more than " + std::to_string(kMaxNodes) +
                                    " nodes (aliases included)");
    }
  }

  void open(ConfigNode node, YAML::anchor_t anchor) {
    ++node_count_;
    if (stack_.size() >= kMaxDepth) {
      throw_bad_input(node.where(),
                      "nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    stack_.push_back(Frame{std::move(node), anchor, std::nullopt, {}});
  }

  void close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    complete(std::move(frame.node), frame.anchor);
  }

  void complete(ConfigNode node, YAML::anchor_t anchor) {
    if (anchor != 0) anchors_[anchor] = node;
    if (stack_.empty()) {
      root_ = std::move(node);
      return;
    }
    Frame& top = stack_.back();
    if (top.node.is_sequence()) {
      top.node.append(std::move(node));
      return;
    }
    if (!top.pending_key) {
      accept_key(top, node);
      return;
    }
    if (node.is_null()) {
      // An empty value has no text of its own; its key is where a reader should look.
      SourceLocation where = top.key_where;
      where.key_path = node.where().key_path;
      node = ConfigNode::make_null(where);
    }
    top.node.set(*top.pending_key, std::move(node));
    top.pending_key.reset();
  }

  void accept_key(Frame& top, const ConfigNode& key_node) {
    if (!key_node.is_scalar()) {
      throw_bad_input(key_node.where(),
                      "map keys must be plain text, got " + key_node.describe_type());
    }
    const std::string& key = key_node.scalar();
    SourceLocation where = key_node.where();
    where.key_path = join_key_path(top.node.where().key_path, key);
    if (top.node.find(key) != nullptr) throw_bad_input(where, "duplicate key '" + key + "'");
    top.pending_key = key;
    top.key_where = where;
  }

  std::string file_label_;
  std::vector<Frame> stack_;
  std::optional<ConfigNode> root_;
  std::map<YAML::anchor_t, ConfigNode> anchors_;
  std::size_t node_count_ = 0;
};

}  // namespace

ConfigNode parse_config_text(const std::string& text, const std::string& file_label) {
  require_utf8(text, file_label);
  std::istringstream stream(text);
  TreeBuilder builder(file_label);
  try {
    YAML::Parser parser(stream);
    parser.HandleNextDocument(builder);
    TreeBuilder extra(file_label);
    if (parser.HandleNextDocument(extra)) {
      throw_bad_input({file_label, 0, 0, ""}, "a file must hold a single YAML document");
    }
  } catch (const YAML::Exception& error) {
    SourceLocation where{file_label, 0, 0, ""};
    if (!error.mark.is_null()) {
      where.line = error.mark.line + 1;
      where.column = error.mark.column + 1;
    }
    throw_bad_input(where, "invalid YAML: " + error.msg);
  }
  std::optional<ConfigNode> root = builder.take_root();
  if (!root) return ConfigNode::make_null({file_label, 0, 0, ""});
  root->rebase_key_paths("");
  return std::move(*root);
}

ConfigNode load_config_file(const std::filesystem::path& path) {
  const SourceLocation where{path.string(), 0, 0, ""};
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw_bad_input(where, "file not found");
  if (std::filesystem::is_directory(path, error)) {
    throw_bad_input(where, "is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw_bad_input(where, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw_bad_input(where, "cannot read file");
  return parse_config_text(text.str(), path.string());
}

}  // namespace polyarch
