#include "gridfuzz/reports/vocabulary.hpp"

#include <array>
#include <tuple>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/index_range.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/reports/utc_time.hpp"

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

// The column's check: the vocabulary's own parse (harness/core/vocabulary.hpp), and its reason.
template <class T>
Error checked(std::string_view what, std::string_view value, const Parsed<T>& parsed) {
  if (parsed.value) return std::nullopt;
  return invalid(what, value, parsed.problem, T::forms());
}

}  // namespace

Error check_predicted(std::string_view value) {
  return checked("predicted", value, PredictedOutcome::read(value));
}

Error check_observed(std::string_view value) { return checked("observed", value, Observed::read(value)); }

Error check_verdict(std::string_view value) { return checked("verdict", value, Verdict::read(value)); }

Error check_index_wrap(std::string_view value) { return checked("index_wrap", value, IndexWrap::read(value)); }

Error check_index_type(std::string_view value) {
  if (value.empty() || gridfuzz::parse_index_type(std::string(value))) return std::nullopt;
  return invalid("index_type", value, "", "empty | " + std::string(index_type_forms()));
}

Error check_tier(std::string_view value) {
  if (value.empty() || parse_case_tier(value)) return std::nullopt;
  return invalid("tier", value, "", "empty | " + std::string(case_tier_forms()));
}

Error check_row(const CsvRow& row, bool check_vocabulary) {
  if (!parse_schema_version(row.get("schema")))
    return "schema " + quoted(row.get("schema")) + " is not a <major>.<minor> version";

  // The outcome columns as values (CsvRow::outcome): only a column that did not parse is read
  // again, for the message.
  const RowOutcome outcome = row.outcome();
  const std::array<std::tuple<std::string_view, bool, Error (*)(std::string_view)>, 6> vocabulary{{
      {"index_type", false, check_index_type},
      {"tier", row.tier().has_value(), check_tier},
      {"index_wrap", outcome.index_wrap.has_value(), check_index_wrap},
      {"predicted", outcome.predicted.has_value(), check_predicted},
      {"observed", outcome.observed.has_value(), check_observed},
      {"verdict", outcome.verdict.has_value(), check_verdict},
  }};
  if (check_vocabulary) {
    for (const auto& [column, parsed, check] : vocabulary)
      if (!parsed)
        if (auto error = check(row.get(column))) return error;
    if (const std::string& started = row.get("started"); !started.empty() && !parse_utc_time(started))
      return "started " + quoted(started) + " is not a UTC time YYYY-MM-DDTHH:MM:SS.mmmZ";
    if (!row.get("finding").empty() && row.get("verdict") != "expected-fail")
      return "finding " + quoted(row.get("finding")) + " on a row whose verdict is " + quoted(row.get("verdict")) +
             ", not expected-fail";
  }

  const auto values = row.views();
  for (std::size_t i = 0; i < kColumnCount; ++i) {
    const std::string_view text = values[i];
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
      case ColumnKind::real_list: {
        const auto values = parse_reals(text);
        if (!values) return std::string(column) + " " + quoted(text.substr(0, 80)) + " is not numbers separated by single spaces";
        // The samples behind time_ms_*: as many as `samples` says (a row without the count is another writer's).
        if (column == "time_samples_ms")
          if (const auto count = parse_int(row.view("samples")); count && *count != static_cast<std::int64_t>(values->size()))
            return std::string(column) + " holds " + std::to_string(values->size()) + " samples, `samples` says " +
                   std::to_string(*count);
        break;
      }
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
