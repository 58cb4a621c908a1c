#include "gridfuzz/core/verdict.hpp"

#include <utility>

namespace gridfuzz {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

bool prediction_agrees(const Prediction& prediction, const Observed& observed) {
  using Kind = Observed::Kind;
  const std::string& predicted = prediction.outcome;
  const bool fault = observed.kind == Kind::fault || observed.kind == Kind::timeout;
  if (fault && prediction.index_wrap() != "safe") return true;
  if (predicted == "accept") return observed.kind == Kind::accept || fault;
  if (starts_with(predicted, "refuse:")) return observed.kind == Kind::refuse;
  if (starts_with(predicted, "host-error:")) return observed.kind == Kind::host_error;
  return false;
}

Verdict decide_verdict(const Prediction& prediction, const Observation& obs, bool ledger_expects_failure) {
  using Kind = Verdict::Kind;
  switch (obs.observed.kind) {
    case Observed::Kind::static_only: return {Kind::static_only, ""};
    case Observed::Kind::skipped: return {Kind::skipped, ""};
    case Observed::Kind::oom: return {Kind::fail, "oom"};
    default: break;
  }
  if (!prediction_agrees(prediction, obs.observed)) return {Kind::model_mismatch, ""};
  std::string kind = obs.failure_kind;
  if (kind.empty()) {
    switch (obs.observed.kind) {
      case Observed::Kind::refuse: kind = "refused"; break;
      case Observed::Kind::host_error: kind = "host-error"; break;
      case Observed::Kind::fault: kind = "fault"; break;
      case Observed::Kind::timeout: kind = "timeout"; break;
      default: break;
    }
  }
  if (kind.empty()) return {ledger_expects_failure ? Kind::unexpected_pass : Kind::pass, ""};
  if (ledger_expects_failure) return {Kind::expected_fail, ""};
  return {Kind::fail, kind};
}

namespace {

// The observed kinds' names; those with a reason are written "<name>:<reason>".
constexpr std::pair<Observed::Kind, std::string_view> kObservedNames[] = {
    {Observed::Kind::accept, "accept"},         {Observed::Kind::refuse, "refuse"},
    {Observed::Kind::fault, "fault"},           {Observed::Kind::timeout, "timeout"},
    {Observed::Kind::host_error, "host-error"}, {Observed::Kind::oom, "oom"},
    {Observed::Kind::skipped, "skipped"},       {Observed::Kind::static_only, "static"},
};

}  // namespace

std::string Observed::to_string() const {
  for (const auto& [k, name] : kObservedNames)
    if (k == kind) return reason.empty() ? std::string(name) : std::string(name) + ":" + reason;
  return "?";
}

std::optional<Observed> Observed::parse(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  const std::string reason = colon == std::string_view::npos ? "" : std::string(text.substr(colon + 1));
  for (const auto& [k, n] : kObservedNames)
    if (name == n) return Observed{k, reason};
  return std::nullopt;
}

namespace {

constexpr std::pair<Verdict::Kind, std::string_view> kVerdictNames[] = {
    {Verdict::Kind::pass, "pass"},
    {Verdict::Kind::expected_fail, "expected-fail"},
    {Verdict::Kind::unexpected_pass, "unexpected-pass"},
    {Verdict::Kind::model_mismatch, "model-mismatch"},
    {Verdict::Kind::skipped, "skipped"},
    {Verdict::Kind::static_only, "static"},
};

}  // namespace

std::string Verdict::to_string() const {
  if (kind == Kind::fail) return "fail:" + failure_kind;
  for (const auto& [k, name] : kVerdictNames)
    if (k == kind) return std::string(name);
  return "?";
}

std::optional<Verdict> Verdict::parse(std::string_view text) {
  if (text.starts_with("fail:")) {
    if (text.size() == 5) return std::nullopt;
    return Verdict{Kind::fail, std::string(text.substr(5))};
  }
  for (const auto& [k, name] : kVerdictNames)
    if (text == name) return Verdict{k, ""};
  return std::nullopt;
}

bool verdict_fails_run(std::string_view text) {
  const auto v = Verdict::parse(text);
  return v && v->fails_run();
}

}  // namespace gridfuzz
