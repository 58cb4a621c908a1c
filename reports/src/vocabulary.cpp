#include "gridfuzz/reports/vocabulary.hpp"

#include <array>

#include "gridfuzz/index_range.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports {
namespace {

using Error = std::optional<std::string>;

// Appended piecewise: `"'" + std::string(...)` trips GCC 12's -Wrestrict false positive.
std::string quoted(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  out += '\'';
  out += value;
  out += '\'';
  return out;
}

Error invalid(std::string_view what, std::string_view value, std::string_view why,
              std::string_view expected) {
  std::string message = std::string(what) + " " + quoted(value) + " is not valid";
  if (!why.empty()) message += ": " + std::string(why);
  message += " (expected " + std::string(expected) + ")";
  return message;
}

// The free-text part after "kind:" (a host error, a fault, a skip reason, an index name):
// non-empty, one line and no stray spacing, so rows stay greppable and group cleanly.
std::optional<std::string_view> free_text_problem(std::string_view text) {
  if (text.empty()) return "empty after ':'";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return "contains a control character";
  }
  if (text.front() == ' ' || text.back() == ' ') return "leading or trailing space after ':'";
  return std::nullopt;
}

bool is_identifier(std::string_view text) {
  if (text.empty()) return false;
  const auto is_alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  if (!is_alpha(text.front()) && text.front() != '_') return false;
  for (const char c : text)
    if (!is_alpha(c) && !(c >= '0' && c <= '9') && c != '_') return false;
  return true;
}

bool is_token(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// "refuse:grid.z" -> "grid.z" when value starts with "refuse:".
std::optional<std::string_view> after_prefix(std::string_view value, std::string_view prefix) {
  if (value.substr(0, prefix.size()) != prefix) return std::nullopt;
  return value.substr(prefix.size());
}

constexpr std::string_view kPredictedForms = "accept | refuse:<rule> | host-error:<what>";
constexpr std::string_view kObservedForms =
    "accept | refuse:<driver error name> | fault:<error> | timeout | host-error:<what> | oom | "
    "skipped:<reason> | static";
constexpr std::string_view kVerdictForms =
    "pass | fail:<kind> | expected-fail | unexpected-pass | model-mismatch | skipped | static";
constexpr std::string_view kIndexWrapForms = "safe | wrap:<name>";

// Check "<prefix><free text>" forms shared by predicted and observed.
Error check_free_text_form(std::string_view what, std::string_view value,
                           std::string_view payload, std::string_view forms) {
  if (const auto problem = free_text_problem(payload)) return invalid(what, value, *problem, forms);
  return std::nullopt;
}

}  // namespace

Error check_predicted(std::string_view value) {
  constexpr std::string_view what = "predicted";
  if (value == "accept") return std::nullopt;
  if (const auto rule = after_prefix(value, "refuse:")) {
    if (rule->empty()) return invalid(what, value, "empty launch rule", kPredictedForms);
    // The predictor owns the rule names; asking it keeps the two lists from drifting apart.
    if (!gridfuzz::parse_rule(std::string(*rule)))
      return invalid(what, value, "unknown launch rule " + quoted(*rule), kPredictedForms);
    return std::nullopt;
  }
  if (const auto what_failed = after_prefix(value, "host-error:"))
    return check_free_text_form(what, value, *what_failed, kPredictedForms);
  return invalid(what, value, "", kPredictedForms);
}

Error check_observed(std::string_view value) {
  constexpr std::string_view what = "observed";
  if (value == "accept" || value == "timeout" || value == "oom" || value == "static")
    return std::nullopt;
  if (const auto name = after_prefix(value, "refuse:")) {
    if (!is_identifier(*name))
      return invalid(what, value, "the driver error name must be an identifier", kObservedForms);
    return std::nullopt;
  }
  for (const std::string_view prefix : {"fault:", "host-error:", "skipped:"})
    if (const auto payload = after_prefix(value, prefix))
      return check_free_text_form(what, value, *payload, kObservedForms);
  return invalid(what, value, "", kObservedForms);
}

Error check_verdict(std::string_view value) {
  constexpr std::string_view what = "verdict";
  for (const std::string_view word :
       {"pass", "expected-fail", "unexpected-pass", "model-mismatch", "skipped", "static"})
    if (value == word) return std::nullopt;
  if (const auto kind = after_prefix(value, "fail:")) {
    if (!is_token(*kind))
      return invalid(what, value, "the failure kind must be a non-empty token of [A-Za-z0-9_.-]",
                     kVerdictForms);
    return std::nullopt;
  }
  return invalid(what, value, "", kVerdictForms);
}

Error check_index_wrap(std::string_view value) {
  constexpr std::string_view what = "index_wrap";
  if (value == "safe") return std::nullopt;
  if (const auto name = after_prefix(value, "wrap:"))
    return check_free_text_form(what, value, *name, kIndexWrapForms);
  return invalid(what, value, "", kIndexWrapForms);
}

Error check_index_type(std::string_view value) {
  if (value.empty() || gridfuzz::parse_index_type(std::string(value))) return std::nullopt;
  return invalid("index_type", value, "", "empty | int16 | uint16 | int32 | uint32 | int64 | uint64");
}

Error check_row(const CsvRow& row, bool check_vocabulary) {
  if (!parse_schema_version(row.get("schema")))
    return "schema " + quoted(row.get("schema")) + " is not a <major>.<minor> version";

  const std::array<std::pair<std::string_view, Error (*)(std::string_view)>, 5> vocabulary{{
      {"index_type", check_index_type},
      {"index_wrap", check_index_wrap},
      {"predicted", check_predicted},
      {"observed", check_observed},
      {"verdict", check_verdict},
  }};
  if (check_vocabulary)
    for (const auto& [column, check] : vocabulary)
      if (auto error = check(row.get(column))) return error;

  for (std::size_t i = 0; i < kColumnCount; ++i) {
    const std::string& text = row.at(i);
    if (text.empty()) continue;
    const std::string_view column = kColumns[i].name;
    switch (kColumns[i].kind) {
      case ColumnKind::integer:
        // Signed for shape arithmetic that went negative, unsigned for 64-bit seeds.
        if (!parse_int(text) && !parse_uint(text))
          return std::string(column) + " " + quoted(text) + " is not a 64-bit integer";
        // A count the reports do arithmetic on: non-negative, and a signed 64-bit value.
        if (column == "samples" && !(parse_int(text) && *parse_int(text) >= 0))
          return std::string(column) + " " + quoted(text) + " is not a count of samples (0 .. 2^63-1)";
        break;
      case ColumnKind::big_integer:
        if (!parse_u128(text))
          return std::string(column) + " " + quoted(text) + " is not a non-negative integer";
        break;
      case ColumnKind::real:
        if (!parse_double(text))
          return std::string(column) + " " + quoted(text) + " is not a number";
        break;
      case ColumnKind::text:
      case ColumnKind::vocabulary:
        // Text fields reach gnuplot scripts, XML and terminals: one printable line of UTF-8.
        if (!is_printable_utf8(text))
          return std::string(column) + " holds a control character or invalid UTF-8 (" +
                 terminal_text(text.substr(0, 80)) + ")";
        break;
    }
  }
  return std::nullopt;
}

}  // namespace gridfuzz::reports
