#include "gridfuzz/core/axis_predicate.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <utility>

namespace gridfuzz {
namespace {

// Longest first, so "<=" is not read as "<" followed by "=...".
constexpr std::array<std::pair<std::string_view, Comparison>, 6> kOperators{{
    {"<=", Comparison::less_equal},
    {">=", Comparison::greater_equal},
    {"!=", Comparison::not_equal},
    {"<", Comparison::less},
    {">", Comparison::greater},
    {"=", Comparison::equal},
}};
constexpr std::string_view kOperatorChars = "<>=!";

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::int64_t> integer_of(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

template <class T>
bool compare(const T& a, Comparison op, const T& b) {
  switch (op) {
    case Comparison::equal: return a == b;
    case Comparison::not_equal: return a != b;
    case Comparison::less: return a < b;
    case Comparison::less_equal: return a <= b;
    case Comparison::greater: return a > b;
    case Comparison::greater_equal: return a >= b;
  }
  return false;
}

const AxisSpec* find_axis(const std::vector<AxisSpec>& axes, const std::string& name) {
  const auto it = std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == name; });
  return it == axes.end() ? nullptr : &*it;
}

// Appended piecewise: `"'" + std::string(...)` trips GCC 12's -Wrestrict false positive.
std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '\'';
  out += s;
  out += '\'';
  return out;
}

}  // namespace

std::string_view to_string(Comparison op) {
  for (const auto& [text, value] : kOperators)
    if (value == op) return text;
  return "?";
}

AxisPredicate AxisPredicate::parse(std::string_view text) {
  const std::string_view whole = trimmed(text);
  const std::size_t at = whole.find_first_of(kOperatorChars);
  if (at == std::string_view::npos)
    throw std::invalid_argument(quoted(whole) + " is not AXIS OP VALUE (OP one of = != < <= > >=)");
  AxisPredicate p;
  std::string_view rest = whole.substr(at);
  bool known = false;
  for (const auto& [op_text, op] : kOperators)
    if (rest.starts_with(op_text)) {
      p.op = op;
      rest.remove_prefix(op_text.size());
      known = true;
      break;
    }
  if (!known) throw std::invalid_argument(quoted(whole) + ": '!' must be followed by '=' (OP one of = != < <= > >=)");
  const std::string_view name = trimmed(whole.substr(0, at)), value = trimmed(rest);
  if (name.empty()) throw std::invalid_argument(quoted(whole) + " names no axis before its operator");
  if (name.find_first_of(" \t") != std::string_view::npos)
    throw std::invalid_argument(quoted(whole) + ": " + quoted(name) + " is not one axis name");
  if (value.empty()) throw std::invalid_argument(quoted(whole) + " has no value after its operator");
  if (value.find_first_of(kOperatorChars) != std::string_view::npos)
    throw std::invalid_argument(quoted(whole) + " has more than one operator (one comparison per predicate; join "
                                                "several with ',')");
  p.axis = std::string(name);
  p.value = std::string(value);
  p.number = integer_of(value);
  return p;
}

std::string AxisPredicate::to_string() const {
  std::string out = axis;
  out += gridfuzz::to_string(op);
  out += value;
  return out;
}

std::optional<std::string> AxisPredicate::mismatch(const AxisSpec& spec) const {
  if (spec.is_choice()) {
    if (op != Comparison::equal && op != Comparison::not_equal)
      return quoted(to_string()) + ": axis '" + axis + "' is a choice axis: it takes = and != only";
    return std::nullopt;
  }
  if (!number) return quoted(to_string()) + ": axis '" + axis + "' is an integer axis, and " + quoted(value) +
                      " is not a 64-bit integer";
  return std::nullopt;
}

bool AxisPredicate::holds(const AxisSpec& spec, const Params& p) const {
  const std::string& text = p.has(axis) ? p.get(axis) : spec.default_value;
  if (spec.is_choice()) return compare(text, op, value);
  const std::optional<std::int64_t> v = integer_of(text);
  return v && number && compare(*v, op, *number);
}

void AxisFilter::add(std::string_view text) {
  std::vector<AxisPredicate> parsed;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view clause = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (trimmed(clause).empty())
      throw std::invalid_argument(quoted(text) + " has an empty predicate (predicates are joined with ',')");
    parsed.push_back(AxisPredicate::parse(clause));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  predicates_.insert(predicates_.end(), parsed.begin(), parsed.end());
}

std::string AxisFilter::to_string() const {
  std::string out;
  for (const AxisPredicate& p : predicates_) {
    if (!out.empty()) out += ',';
    out += p.to_string();
  }
  return out;
}

std::optional<std::string> AxisFilter::problem(const std::vector<std::vector<AxisSpec>>& axes_of_each_kernel) const {
  for (const AxisPredicate& p : predicates_) {
    bool found = false, has_choice = false;
    std::vector<std::string> choices;
    for (const auto& axes : axes_of_each_kernel) {
      const AxisSpec* spec = find_axis(axes, p.axis);
      if (!spec) continue;
      found = true;
      if (auto why = p.mismatch(*spec)) return why;
      if (!spec->is_choice()) {
        has_choice = true;  // an integer axis: any integer can be compared
        continue;
      }
      for (const std::string& c : spec->choices) {
        if (c == p.value) has_choice = true;
        if (std::find(choices.begin(), choices.end(), c) == choices.end()) choices.push_back(c);
      }
    }
    if (!found) {
      std::vector<std::string> names;
      for (const auto& axes : axes_of_each_kernel)
        for (const AxisSpec& a : axes)
          if (std::find(names.begin(), names.end(), a.name) == names.end()) names.push_back(a.name);
      std::sort(names.begin(), names.end());
      std::string list;
      for (const std::string& n : names) {
        if (!list.empty()) list += ", ";
        list += n;
      }
      return quoted(p.to_string()) + ": no selected kernel has an axis '" + p.axis + "' (axes: " + list + ")";
    }
    if (!has_choice) {
      std::string list;
      for (const std::string& c : choices) {
        if (!list.empty()) list += ", ";
        list += c;
      }
      return quoted(p.to_string()) + ": no axis '" + p.axis + "' has the choice " + quoted(p.value) + " (choices: " +
             list + ")";
    }
  }
  return std::nullopt;
}

bool AxisFilter::applies_to(const std::vector<AxisSpec>& axes) const {
  return std::all_of(predicates_.begin(), predicates_.end(),
                     [&](const AxisPredicate& p) { return find_axis(axes, p.axis) != nullptr; });
}

bool AxisFilter::matches(const std::vector<AxisSpec>& axes, const Params& p) const {
  return std::all_of(predicates_.begin(), predicates_.end(), [&](const AxisPredicate& pred) {
    const AxisSpec* spec = find_axis(axes, pred.axis);
    return spec && !pred.mismatch(*spec) && pred.holds(*spec, p);
  });
}

}  // namespace gridfuzz
