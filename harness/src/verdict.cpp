#include "gridfuzz/verdict.hpp"

#include <utility>

namespace gridfuzz {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

bool prediction_agrees(const Prediction& prediction, const std::string& observed) {
  const std::string& predicted = prediction.outcome;
  const bool fault = starts_with(observed, "fault:") || observed == "timeout";
  if (fault && prediction.index_wrap() != "safe") return true;
  if (predicted == "accept") return observed == "accept" || fault;
  if (starts_with(predicted, "refuse:")) return starts_with(observed, "refuse:");
  if (starts_with(predicted, "host-error:")) return starts_with(observed, "host-error:");
  return false;
}

Verdict decide_verdict(const Prediction& prediction, const Observation& obs, bool ledger_expects_failure) {
  using Kind = Verdict::Kind;
  if (obs.observed == "static") return {Kind::static_only, ""};
  if (starts_with(obs.observed, "skipped")) return {Kind::skipped, ""};
  if (obs.observed == "oom") return {Kind::fail, "oom"};
  if (!prediction_agrees(prediction, obs.observed)) return {Kind::model_mismatch, ""};
  std::string kind = obs.failure_kind;
  if (kind.empty()) {
    if (starts_with(obs.observed, "refuse:")) kind = "refused";
    else if (starts_with(obs.observed, "host-error:")) kind = "host-error";
    else if (starts_with(obs.observed, "fault:")) kind = "fault";
    else if (obs.observed == "timeout") kind = "timeout";
  }
  if (kind.empty()) return {ledger_expects_failure ? Kind::unexpected_pass : Kind::pass, ""};
  if (ledger_expects_failure) return {Kind::expected_fail, ""};
  return {Kind::fail, kind};
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
