#include "gridfuzz/core/ledger_condition.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace gridfuzz {

// One node of the tree: a literal, a name, or an operator over its operands.
struct LedgerCondition::Node {
  enum class Op { integer, text, name, add, sub, mul, div, mod, pow, eq, ne, lt, le, gt, ge, both, either, negate };
  Op op;
  std::int64_t integer = 0;
  std::string text;  // a text literal, or a name
  std::shared_ptr<const Node> left, right;
  bool is_condition() const { return op >= Op::eq; }
};

namespace {

using Node = LedgerCondition::Node;
using Op = Node::Op;
using NodePtr = std::shared_ptr<const Node>;

NodePtr make(Op op, NodePtr left = nullptr, NodePtr right = nullptr) {
  auto n = std::make_shared<Node>();
  n->op = op;
  n->left = std::move(left);
  n->right = std::move(right);
  return n;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  NodePtr parse_all(std::vector<std::string>& names) {
    NodePtr root = condition();
    skip_space();
    if (pos_ >= text_.size() && !root->is_condition()) fail("a comparison (== != < <= > >=) is needed");
    if (pos_ < text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    names = std::move(names_);
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("condition '" + std::string(text_) + "': " + what + " at character " +
                                std::to_string(std::min(pos_, text_.size()) + 1));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::strchr(" \t\r\v\f", text_[pos_]) != nullptr && text_[pos_] != '\0') ++pos_;
  }

  bool take(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  // Nesting (parentheses, '!', '^') is bounded, so a hostile line cannot exhaust the stack.
  struct Deeper {
    Parser& p;
    explicit Deeper(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth) p.fail("nesting deeper than " + std::to_string(kMaxDepth));
    }
    ~Deeper() { --p.depth_; }
  };
  static constexpr int kMaxDepth = 32;

  NodePtr need_condition(NodePtr n, const char* where) {
    if (!n->is_condition()) fail(std::string("a comparison is needed ") + where);
    return n;
  }

  NodePtr need_value(NodePtr n, const char* where) {
    if (n->is_condition()) fail(std::string("a value is needed ") + where + ", not a comparison");
    return n;
  }

  NodePtr condition() {
    NodePtr left = conjunction();
    while (take("||")) left = make(Op::either, need_condition(left, "before ||"), need_condition(conjunction(), "after ||"));
    return left;
  }

  NodePtr conjunction() {
    NodePtr left = negation();
    while (take("&&")) left = make(Op::both, need_condition(left, "before &&"), need_condition(negation(), "after &&"));
    return left;  // a value only inside parentheses: parse_all and the operators check
  }

  NodePtr negation() {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '!' && text_.substr(pos_, 2) != "!=") {
      ++pos_;
      const Deeper deeper(*this);
      return make(Op::negate, need_condition(negation(), "after !"));
    }
    return comparison();
  }

  NodePtr comparison() {
    NodePtr left = sum();
    if (left->is_condition()) return left;  // a parenthesized condition
    static constexpr std::pair<std::string_view, Op> kOps[] = {
        {"==", Op::eq}, {"!=", Op::ne}, {"<=", Op::le}, {">=", Op::ge}, {"<", Op::lt}, {">", Op::gt}};
    for (const auto& [token, op] : kOps)
      if (take(token)) return make(op, left, need_value(sum(), "after a comparison"));
    return left;  // a value: allowed inside parentheses, refused where a condition is needed
  }

  NodePtr sum() {
    NodePtr left = term();
    for (;;) {
      if (take("+"))
        left = make(Op::add, need_value(left, "before +"), need_value(term(), "after +"));
      else if (take("-"))
        left = make(Op::sub, need_value(left, "before -"), need_value(term(), "after -"));
      else
        return left;
    }
  }

  NodePtr term() {
    NodePtr left = power();
    for (;;) {
      Op op;
      if (take("*"))
        op = Op::mul;
      else if (take("/"))
        op = Op::div;
      else if (take("%"))
        op = Op::mod;
      else
        return left;
      left = make(op, need_value(left, "before an operator"), need_value(power(), "after an operator"));
    }
  }

  NodePtr power() {
    NodePtr base = atom();
    const Deeper deeper(*this);
    if (take("^")) return make(Op::pow, need_value(base, "before ^"), need_value(power(), "after ^"));
    return base;
  }

  NodePtr atom() {
    skip_space();
    if (pos_ >= text_.size()) fail("the condition ends too early");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      const Deeper deeper(*this);
      NodePtr inner = condition();
      if (!take(")")) fail("')' is missing");
      return inner;
    }
    if (c == '"') {
      const std::size_t end = text_.find('"', pos_ + 1);
      if (end == std::string_view::npos) fail("the text is not closed with \"");
      auto n = std::make_shared<Node>();
      n->op = Op::text;
      n->text = std::string(text_.substr(pos_ + 1, end - pos_ - 1));
      pos_ = end + 1;
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t end = pos_;
      while (end < text_.size() && std::isdigit(static_cast<unsigned char>(text_[end]))) ++end;
      auto n = std::make_shared<Node>();
      n->op = Op::integer;
      const auto [ptr, ec] = std::from_chars(text_.data() + pos_, text_.data() + end, n->integer);
      if (ec != std::errc()) fail("the number does not fit 64 bits");
      pos_ = end;
      return n;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = pos_;
      while (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) ++end;
      auto n = std::make_shared<Node>();
      n->op = Op::name;
      n->text = std::string(text_.substr(pos_, end - pos_));
      if (std::find(names_.begin(), names_.end(), n->text) == names_.end()) names_.push_back(n->text);
      pos_ = end;
      return n;
    }
    fail("a number, a name, \"text\" or '(' is needed, not '" + std::string(1, c) + "'");
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::vector<std::string> names_;
};

using Value = std::optional<ConditionValue>;  // nullopt: not computable here (the condition fails)

std::optional<std::int64_t> integer_of(const Value& v) {
  if (!v || !std::holds_alternative<std::int64_t>(*v)) return std::nullopt;
  return std::get<std::int64_t>(*v);
}

std::optional<std::int64_t> arithmetic(Op op, std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  switch (op) {
    case Op::add: return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case Op::sub: return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case Op::mul: return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case Op::div:
    case Op::mod:
      if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
      return op == Op::div ? a / b : a % b;
    case Op::pow: {
      if (b < 0) return std::nullopt;
      r = 1;
      for (std::int64_t i = 0; i < b; ++i)
        if (__builtin_mul_overflow(r, a, &r)) return std::nullopt;
      return r;
    }
    default: return std::nullopt;
  }
}

Value value_of(const Node& n, const ConditionLookup& lookup) {
  switch (n.op) {
    case Op::integer: return n.integer;
    case Op::text: return n.text;
    case Op::name: return lookup(n.text);
    default: break;
  }
  const auto a = integer_of(value_of(*n.left, lookup));
  const auto b = integer_of(value_of(*n.right, lookup));
  if (!a || !b) return std::nullopt;
  const auto r = arithmetic(n.op, *a, *b);
  return r ? Value(*r) : std::nullopt;
}

// Three-valued: nullopt where a value cannot be computed exactly (overflow, a name the case lacks,
// text where a number is needed). Unknown stays unknown through '!', and '&&' / '||' are known
// only where their known operands decide them, so no operator turns "not computed" into true.
std::optional<bool> holds_at(const Node& n, const ConditionLookup& lookup) {
  switch (n.op) {
    case Op::both: {
      const auto a = holds_at(*n.left, lookup), b = holds_at(*n.right, lookup);
      if (a == false || b == false) return false;
      if (a && b) return true;
      return std::nullopt;
    }
    case Op::either: {
      const auto a = holds_at(*n.left, lookup), b = holds_at(*n.right, lookup);
      if (a == true || b == true) return true;
      if (a && b) return false;
      return std::nullopt;
    }
    case Op::negate: {
      const auto a = holds_at(*n.left, lookup);
      return a ? std::optional(!*a) : std::nullopt;
    }
    default: break;
  }
  const Value a = value_of(*n.left, lookup), b = value_of(*n.right, lookup);
  if (!a || !b || a->index() != b->index()) return std::nullopt;
  if (std::holds_alternative<std::string>(*a)) {
    if (n.op == Op::eq) return *a == *b;
    if (n.op == Op::ne) return *a != *b;
    return std::nullopt;  // text has no order
  }
  const std::int64_t x = std::get<std::int64_t>(*a), y = std::get<std::int64_t>(*b);
  switch (n.op) {
    case Op::eq: return x == y;
    case Op::ne: return x != y;
    case Op::lt: return x < y;
    case Op::le: return x <= y;
    case Op::gt: return x > y;
    case Op::ge: return x >= y;
    default: return std::nullopt;
  }
}

std::optional<std::int64_t> decimal_integer(std::string_view text) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

LedgerCondition LedgerCondition::parse(std::string_view text) {
  LedgerCondition c;
  c.text_ = std::string(text);
  Parser parser(text);
  c.root_ = parser.parse_all(c.names_);
  return c;
}

bool LedgerCondition::holds(const ConditionLookup& lookup) const { return root_ && holds_at(*root_, lookup).value_or(false); }

ConditionLookup case_condition_lookup(const std::vector<std::pair<std::string, std::string>>& axes,
                                      std::string predicted, std::string observed, std::string index_wrap) {
  return [axes, predicted = std::move(predicted), observed = std::move(observed),
          index_wrap = std::move(index_wrap)](std::string_view name) -> std::optional<ConditionValue> {
    if (name == "predicted") return predicted;
    if (name == "observed") return observed;
    if (name == "index_wrap") return index_wrap;
    for (const auto& [axis, value] : axes)
      if (axis == name) {
        if (const auto integer = decimal_integer(value)) return *integer;
        return value;
      }
    return std::nullopt;
  };
}

}  // namespace gridfuzz
