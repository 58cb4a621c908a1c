#include "gridfuzz/verdict.hpp"

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

std::string decide_verdict(const Prediction& prediction, const Observation& obs, bool ledger_expects_failure) {
  if (obs.observed == "static") return "static";
  if (starts_with(obs.observed, "skipped")) return "skipped";
  if (obs.observed == "oom") return "fail:oom";
  if (!prediction_agrees(prediction, obs.observed)) return "model-mismatch";
  std::string kind = obs.failure_kind;
  if (kind.empty()) {
    if (starts_with(obs.observed, "refuse:")) kind = "refused";
    else if (starts_with(obs.observed, "host-error:")) kind = "host-error";
    else if (starts_with(obs.observed, "fault:")) kind = "fault";
    else if (obs.observed == "timeout") kind = "timeout";
  }
  if (kind.empty()) return ledger_expects_failure ? "unexpected-pass" : "pass";
  return ledger_expects_failure ? "expected-fail" : "fail:" + kind;
}

}  // namespace gridfuzz
