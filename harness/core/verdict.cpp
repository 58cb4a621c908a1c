#include "gridfuzz/core/verdict.hpp"

namespace gridfuzz {

bool outcome_agrees(const PredictedOutcome& predicted, const IndexWrap& wrap, const Observed& observed) {
  using Kind = Observed::Kind;
  const bool fault = observed.kind == Kind::fault || observed.kind == Kind::timeout;
  if (fault && wrap.wraps()) return true;
  switch (predicted.kind) {
    case PredictedOutcome::Kind::accept: return observed.kind == Kind::accept || fault;
    case PredictedOutcome::Kind::refuse: return observed.kind == Kind::refuse;
    case PredictedOutcome::Kind::host_error: return observed.kind == Kind::host_error;
  }
  return false;
}

bool prediction_agrees(const Prediction& prediction, const Observed& observed) {
  return outcome_agrees(predicted_outcome(prediction), index_wrap_of(prediction), observed);
}

Verdict decide_verdict(const Prediction& prediction, const Observation& obs, bool ledger_expects_failure) {
  using Kind = Verdict::Kind;
  switch (obs.observed.kind) {
    case Observed::Kind::static_only: return Verdict::of(Kind::static_only);
    case Observed::Kind::skipped: return Verdict::of(Kind::skipped);
    case Observed::Kind::oom: return Verdict::failed(FailureKind::oom);
    default: break;
  }
  if (!prediction_agrees(prediction, obs.observed)) return Verdict::of(Kind::model_mismatch);
  std::optional<FailureKind> failure = obs.failure_kind;
  if (!failure) {
    switch (obs.observed.kind) {
      case Observed::Kind::refuse: failure = FailureKind::refused; break;
      case Observed::Kind::host_error: failure = FailureKind::host_error; break;
      case Observed::Kind::fault: failure = FailureKind::fault; break;
      case Observed::Kind::timeout: failure = FailureKind::timeout; break;
      default: break;
    }
  }
  if (!failure) return Verdict::of(ledger_expects_failure ? Kind::unexpected_pass : Kind::pass);
  if (ledger_expects_failure) return Verdict::of(Kind::expected_fail);
  return Verdict::failed(*failure);
}

bool verdict_fails_run(std::string_view text) {
  const auto v = Verdict::parse(text);
  return v && v->fails_run();
}

}  // namespace gridfuzz
