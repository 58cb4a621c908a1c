#include "gridfuzz/reports/case_outcome.hpp"

#include <cctype>
#include <stdexcept>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz::reports {
namespace {

// Rows written by other tools may hold "gridfuzz replay 'X'": keep the X.
std::string bare_replay(std::string text) {
  if (const auto space = text.rfind(' '); space != std::string::npos) text = text.substr(space + 1);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front())
    text = text.substr(1, text.size() - 2);
  return text;
}

// The limits of the row's compute capability (a preset), for the numbers of a refused rule.
std::optional<DeviceLimits> limits_for_cc(const std::string& cc) {
  std::string digits;
  for (char c : cc)
    if (c != '.') digits += c;
  if (digits.empty()) return std::nullopt;
  return device_preset("sm_" + digits);
}

}  // namespace

std::map<std::string, std::string> case_axes(const CsvRow& row) {
  try {
    const Case c = Case::parse_replay(bare_replay(row.get("replay")));
    if (!c.params.values().empty()) return c.params.values();
  } catch (const std::invalid_argument&) {
    // Fall through to the columns.
  }
  std::map<std::string, std::string> axes;  // the axes with a column of their own (schema.hpp)
  for (const std::string_view column : kAxisColumns)
    if (!row.is_empty(column)) axes[std::string(column)] = row.get(column);
  return axes;
}

bool predicted_fails(const CsvRow& row) {
  const RowOutcome& o = row.outcome();
  return !o.predicted_accept() || o.wrap_predicted();
}

std::optional<bool> observed_fails(const CsvRow& row) {
  using Kind = Observed::Kind;
  const RowOutcome& o = row.outcome();
  if (o.observed_is(Kind::static_only) || o.observed_is(Kind::skipped) || o.verdict_is(Verdict::Kind::skipped))
    return std::nullopt;
  return !o.observed_is(Kind::accept) || o.verdict_is(Verdict::Kind::fail) ||
         o.verdict_is(Verdict::Kind::expected_fail);
}

std::string predicted_rule_text(const CsvRow& row) {
  const RowOutcome& o = row.outcome();
  const std::string& predicted = row.get("predicted");
  if (o.predicted && o.predicted->kind == PredictedOutcome::Kind::refuse) {
    const std::optional<Rule> rule = o.predicted->rule;
    const auto limits = limits_for_cc(row.get("cc"));
    const char* geometry[] = {"grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z"};
    bool has_geometry = true;
    for (const char* column : geometry) has_geometry = has_geometry && !row.is_empty(column);
    if (rule && limits && has_geometry) {
      try {
        // Re-judge the recorded launch with the same model: the same words as `gridfuzz plan`.
        LaunchSpec launch;
        launch.grid = {*row.get_uint("grid_x"), *row.get_uint("grid_y"), *row.get_uint("grid_z")};
        launch.block = {*row.get_uint("block_x"), *row.get_uint("block_y"), *row.get_uint("block_z")};
        launch.dynamic_smem_bytes = row.get_uint("smem").value_or(0);
        launch.smem_optin = *rule == Rule::smem_optin;
        launch.func.num_regs = static_cast<int>(row.get_int("regs").value_or(0));
        const LaunchVerdict verdict = predict_launch(launch, *limits);
        if (!verdict.accepted && verdict.rule == rule) return verdict.detail;
      } catch (const std::invalid_argument&) {
        // A malformed number: the text below is still true.
      }
    }
    return predicted;
  }
  if (o.predicted_accept() && o.wrap_predicted()) {
    std::string text = row.get("index_wrap");
    if (!row.is_empty("max_index"))
      text += " (max_index " + row.get("max_index") +
              (row.is_empty("index_type") ? std::string() : ", " + row.get("index_type")) + ")";
    return text;
  }
  return predicted;
}

std::string observed_text(const CsvRow& row) {
  const std::string& oracle = row.get("oracle");
  if (row.outcome().observed_is(Observed::Kind::accept) && oracle_says_something(oracle))
    return row.get("observed") + ", oracle " + oracle;
  return row.get("observed");
}

std::string device_slug(std::string_view device) {
  std::string slug;
  for (char c : device) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u))
      slug += static_cast<char>(std::tolower(u));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "unknown-device" : slug;
}

}  // namespace gridfuzz::reports
