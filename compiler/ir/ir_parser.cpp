#include "compiler/ir/ir_parser.h"

#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "compiler/ir/ir_cursor.h"
#include "compiler/ir/ir_op_attributes_parser.h"
#include "compiler/ir/ir_value_parser.h"
#include "compiler/ir/shape_text.h"
#include "compiler/ir/tensor_text.h"
#include "compiler/ir/verifier.h"

namespace polyarch::ir {

namespace {

// Canonical op kinds by their printed name.
std::optional<OpKind> canonical_kind(std::string_view name) {
  for (int value = 0; value < static_cast<int>(OpKind::kFrontend); ++value) {
    const auto kind = static_cast<OpKind>(value);
    if (op_kind_name(kind) == name) return kind;
  }
  return std::nullopt;
}

class IrParser {
 public:
  explicit IrParser(std::string file) : file_(std::move(file)) {}

  Graph run(std::string_view text) {
    int line_number = 0;
    while (!text.empty()) {
      const std::size_t end = text.find('\n');
      const std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      ++line_number;
      const SourceLocation where{file_, line_number, 0, ""};
      TokenCursor cursor(lex_line(line, where), where);
      if (!cursor.at_end()) statement(cursor);
    }
    if (!graph_) start_graph();
    // The text defines names before their use, so what is left to check is what the verifier
    // knows beyond the grammar.
    for (const std::string& problem : verify_graph(*graph_)) {
      throw_bad_input({file_, 0, 0, ""}, problem);
    }
    return std::move(*graph_);
  }

 private:
  void statement(TokenCursor& cursor) {
    if (cursor.peek().kind == TokenKind::kName) {
      op_statement(cursor);
    } else if (cursor.accept_word("graph")) {
      if (graph_ || name_) cursor.fail_at(cursor.peek(), "'graph' must be the first statement");
      name_ = cursor.expect(TokenKind::kString, "the graph's name as a \"string\"").text;
    } else if (cursor.accept_word("opset")) {
      const std::string domain = cursor.expect(TokenKind::kString, "a domain \"string\"").text;
      opsets_[domain] = cursor.expect_integer("an opset version");
    } else if (cursor.accept_word("unavailable")) {
      const std::string reason = cursor.expect(TokenKind::kString, "a reason \"string\"").text;
      if (graph_) {
        graph_->mark_functional_unavailable(reason);
      } else {
        unavailable_.push_back(reason);
      }
    } else if (cursor.at_word("input") || cursor.at_word("weight")) {
      const bool weight = cursor.take().text == "weight";
      const NodeId id = define_tensor(cursor);
      if (weight) graph().tensor(id).role = TensorRole::kWeight;
    } else if (cursor.accept_word("output")) {
      do {
        graph().tensor(use_tensor(cursor)).role = TensorRole::kOutput;
      } while (cursor.accept_punct(','));
    } else if (cursor.accept_word("storage")) {
      const NodeId copy = use_tensor(cursor);
      cursor.expect_punct('=');
      const Token& owner = cursor.peek();
      const NodeId original = use_tensor(cursor);
      if (original >= copy) {
        cursor.fail_at(owner, "a tensor can reuse the storage of an earlier tensor only");
      }
      const Tensor& copy_tensor = graph().tensor(copy);
      const Tensor& original_tensor = graph().tensor(original);
      if (copy_tensor.shape_known() && original_tensor.shape_known() &&
          storage_bytes(element_count(copy_tensor.shape), copy_tensor.dtype) >
              storage_bytes(element_count(original_tensor.shape), original_tensor.dtype)) {
        cursor.fail_at(owner, "tensor '%" + copy_tensor.name + "' does not fit the storage of '%" +
                                  original_tensor.name + "'");
      }
      graph().tensor(copy).storage_of = original_tensor.name;
    } else {
      cursor.fail_expected(
          "a statement (graph, opset, unavailable, input, weight, %op = ..., "
          "output, storage)");
    }
    cursor.expect_end();
  }

  Graph& graph() {
    if (!graph_) start_graph();
    return *graph_;
  }

  void start_graph() {
    graph_.emplace(name_.value_or(std::filesystem::path(file_).stem().string()));
    for (const std::string& reason : unavailable_) graph_->mark_functional_unavailable(reason);
  }

  // The domain of "com.microsoft.Gelu": the longest domain an `opset` line declares that
  // prefixes it (an op type may hold dots too, as allow-unknown's "com.example.Mystery" in
  // its own domain does); without one, the default domain when it is declared, else all up
  // to the last dot.
  std::string domain_of(const std::string& spelled) const {
    std::string longest;
    for (const auto& [domain, opset] : opsets_) {
      if (!domain.empty() && domain.size() > longest.size() && spelled.size() > domain.size() &&
          spelled.compare(0, domain.size(), domain) == 0 && spelled[domain.size()] == '.') {
        longest = domain;
      }
    }
    if (!longest.empty() || opsets_.count("") > 0) return longest;
    const std::size_t dot = spelled.rfind('.');
    return dot == std::string::npos ? "" : spelled.substr(0, dot);
  }

  // %name[shape]:dtype contents: a new tensor.
  NodeId define_tensor(TokenCursor& cursor) {
    const Token& name = cursor.expect(TokenKind::kName, "a %tensor name");
    if (tensors_.count(name.text) > 0) {
      cursor.fail_at(name, "tensor '%" + name.text + "' is defined twice");
    }
    Tensor tensor;
    tensor.name = name.text;
    parse_shape(cursor, tensor);
    parse_tensor_dtype(cursor, tensor);
    if (parse_tensor_contents(cursor, tensor)) {
      graph().mark_functional_unavailable("tensor '" + tensor.name +
                                          "' has values the text IR leaves out");
    }
    const NodeId id = graph().add_tensor(std::move(tensor));
    tensors_[name.text] = id;
    return id;
  }

  // %name, optionally with the shape it has: a tensor defined earlier.
  NodeId use_tensor(TokenCursor& cursor) {
    const Token& name = cursor.expect(TokenKind::kName, "a %tensor name");
    const auto found = tensors_.find(name.text);
    if (found == tensors_.end()) {
      cursor.fail_at(name, "tensor '%" + name.text + "' is used before it is defined");
    }
    if (cursor.at_punct('[')) {
      const Token& open = cursor.peek();
      Tensor written;
      parse_shape(cursor, written);
      const Tensor& defined = graph().tensor(found->second);
      if (written.shape != defined.shape || written.scalar != defined.scalar) {
        cursor.fail_at(open, "tensor '%" + name.text + "' is written " +
                                 tensor_shape_text(written) + " but defined " +
                                 tensor_shape_text(defined));
      }
    }
    return found->second;
  }

  // The op's type: a canonical kind, or onnx:[domain.]Type[@opset].
  void parse_type(TokenCursor& cursor, Op& op) {
    const Token& type = cursor.expect(TokenKind::kWord, "an op type");
    if (const std::optional<OpKind> kind = canonical_kind(type.text)) {
      op.attrs = GemmAttrs{};  // replaced once the attributes are read
      kind_ = *kind;
      return;
    }
    if (type.text.rfind("onnx:", 0) != 0) {
      cursor.fail_at(type, "unknown op type '" + type.text +
                               "' (expected gemm, conv2d, attention, elementwise, reduce, norm, "
                               "softmax, pool, embedding, copy or onnx:<OpType>)");
    }
    kind_ = OpKind::kFrontend;
    op.attrs = onnx_node(cursor, type);
  }

  OnnxNodeAttrs onnx_node(TokenCursor& cursor, const Token& type) {
    std::string spelled = type.text.substr(5);
    OnnxNodeAttrs node;
    std::optional<int64_t> opset;
    if (const std::size_t at = spelled.find('@'); at != std::string::npos) {
      opset = integer_from_text(spelled.substr(at + 1));
      if (!opset)
        cursor.fail_at(type, "expected an opset version after '@' in '" + type.text + "'");
      spelled.resize(at);
    }
    node.domain = domain_of(spelled);
    node.op_type = node.domain.empty() ? spelled : spelled.substr(node.domain.size() + 1);
    if (node.op_type.empty()) cursor.fail_at(type, "'" + type.text + "' names no ONNX operator");
    const auto declared = opsets_.find(node.domain);
    node.opset = opset.value_or(declared == opsets_.end() ? 0 : declared->second);
    return node;
  }

  // %name = type(operands) attributes -> results dtype placement [from onnx:Type {attributes}]
  void op_statement(TokenCursor& cursor) {
    const Token& name = cursor.take();
    if (!op_names_.insert(name.text).second) {
      cursor.fail_at(name, "op '%" + name.text + "' is defined twice");
    }
    Op op;
    op.name = name.text;
    op.where = cursor.location_of(name);
    cursor.expect_punct('=');
    parse_type(cursor, op);
    cursor.expect_punct('(');
    std::vector<NodeId> operands;
    std::vector<int64_t> omitted_inputs;
    slots(cursor, ')', omitted_inputs, [&] { operands.push_back(use_tensor(cursor)); });
    attributes(cursor, op);
    if (cursor.peek().kind != TokenKind::kArrow) cursor.fail_expected("an attribute or '->'");
    cursor.take();
    const NodeId op_id = graph().add_op(Op{});
    for (NodeId operand : operands) graph().connect(operand, op_id);
    std::vector<int64_t> omitted_outputs;
    slots(cursor, '\0', omitted_outputs, [&] { graph().connect(op_id, define_tensor(cursor)); });
    if (auto* node = std::get_if<OnnxNodeAttrs>(&op.attrs)) {
      node->omitted_inputs = std::move(omitted_inputs);
      node->omitted_outputs = std::move(omitted_outputs);
    } else if (!omitted_inputs.empty() || !omitted_outputs.empty()) {
      cursor.fail_at(name, "only onnx: ops have omitted ('_') operands or results");
    }
    placement(cursor, op);
    if (op.kind() != OpKind::kFrontend) validate_op(op);
    graph().op(op_id) = std::move(op);
  }

  // A comma-separated list of items and `_` (omitted) slots, until `close` (or, for '\0', the
  // first token that is neither).
  template <typename ReadItem>
  void slots(TokenCursor& cursor, char close, std::vector<int64_t>& omitted, ReadItem read_item) {
    int64_t slot = 0;
    while (close == '\0' || !cursor.at_punct(close)) {
      if (slot > 0 && !cursor.accept_punct(',')) {
        if (close == '\0') break;
        cursor.fail_expected(std::string("',' or '") + close + "'");
      }
      if (cursor.accept_punct('_')) {
        omitted.push_back(slot);
      } else {
        read_item();
      }
      ++slot;
    }
    if (close != '\0') cursor.expect_punct(close);
  }

  void attributes(TokenCursor& cursor, Op& op) {
    if (kind_ == OpKind::kFrontend) {
      bool elided = false;
      std::get<OnnxNodeAttrs>(op.attrs).attributes = parse_onnx_attributes(cursor, elided);
      if (elided) {
        graph().mark_functional_unavailable("op '" + op.name +
                                            "' has a tensor attribute whose values the text IR "
                                            "leaves out");
      }
    } else {
      op.attrs = parse_canonical_attributes(cursor, kind_);
    }
  }

  static DType element_type(TokenCursor& cursor, const std::string& what) {
    const Token& dtype = cursor.expect(TokenKind::kWord, what);
    const std::optional<DType> parsed = parse_dtype(dtype.text);
    if (!parsed) cursor.fail_at(dtype, "unknown element type '" + dtype.text + "'");
    return *parsed;
  }

  // native|dtype, then layout=, sparsity=N:M, density=, input=, weights=DTYPE [group=N], then
  // `from onnx:Type {attributes}`.
  void placement(TokenCursor& cursor, Op& op) {
    if (!cursor.accept_word("native")) op.dtype = element_type(cursor, "the op's element type or native");
    if (cursor.accept_word("layout")) {
      cursor.expect_punct('=');
      const Token& layout = cursor.expect(TokenKind::kWord, "nchw or nhwc");
      if (layout.text != "nchw" && layout.text != "nhwc") {
        cursor.fail_at(layout, "expected nchw or nhwc, found '" + layout.text + "'");
      }
      op.layout = layout.text == "nhwc" ? Layout::kNhwc : Layout::kNchw;
    }
    WeightSparsity sparsity;
    bool sparse = false;
    if (cursor.accept_word("sparsity")) {
      cursor.expect_punct('=');
      const Token& pattern = cursor.expect(TokenKind::kWord, "an N:M pattern");
      const std::size_t colon = pattern.text.find(':');
      const auto n = integer_from_text(pattern.text.substr(0, colon));
      const auto m = colon == std::string::npos ? std::nullopt
                                                : integer_from_text(pattern.text.substr(colon + 1));
      if (!n || !m)
        cursor.fail_at(pattern, "expected an N:M pattern, found '" + pattern.text + "'");
      sparsity.n = *n;
      sparsity.m = *m;
      sparse = true;
    }
    if (cursor.accept_word("density")) {
      cursor.expect_punct('=');
      sparsity.density = cursor.expect_real("a density");
      sparse = true;
    }
    if (sparse) op.weight_sparsity = sparsity;
    if (cursor.accept_word("input")) {
      cursor.expect_punct('=');
      const Token& sign = cursor.expect(TokenKind::kWord, "signed or unsigned");
      if (sign.text != "signed" && sign.text != "unsigned") {
        cursor.fail_at(sign, "expected signed or unsigned, found '" + sign.text + "'");
      }
      op.signed_input = sign.text == "signed";
    }
    if (cursor.accept_word("weights")) {
      cursor.expect_punct('=');
      WeightFormat format;
      format.dtype = element_type(cursor, "the weights' element type");
      if (cursor.accept_word("group")) {
        cursor.expect_punct('=');
        format.group = cursor.expect_integer("a group size");
      }
      op.weight_format = format;
    }
    if (cursor.accept_word("from")) {
      const Token& type = cursor.expect(TokenKind::kWord, "onnx:<OpType>");
      if (type.text.rfind("onnx:", 0) != 0) cursor.fail_expected("onnx:<OpType>");
      auto source = std::make_shared<OnnxNodeAttrs>(onnx_node(cursor, type));
      if (cursor.accept_punct('{')) {
        bool elided = false;
        source->attributes = parse_onnx_attributes(cursor, elided);
        cursor.expect_punct('}');
      }
      op.lowered_from = std::move(source);
    }
  }

  std::string file_;
  std::optional<std::string> name_;
  std::vector<std::string> unavailable_;
  std::optional<Graph> graph_;
  std::map<std::string, int64_t> opsets_;
  std::map<std::string, NodeId> tensors_;
  std::set<std::string> op_names_;
  OpKind kind_ = OpKind::kFrontend;
};

}  // namespace

Graph parse_ir(std::string_view text, const std::string& file) { return IrParser(file).run(text); }

}  // namespace polyarch::ir
