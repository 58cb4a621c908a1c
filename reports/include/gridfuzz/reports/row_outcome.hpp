#pragma once
// A row's outcome columns as values of the vocabulary (harness/core/vocabulary.hpp): read once,
// where the text enters the row (CsvRow::set, which the reader calls for every field), so that
// report, diff, JUnit and the plots compare enums and never words. A column whose text is not in
// this reader's vocabulary (empty, a word of a newer minor version, a row read without checks)
// reads as nullopt: neither failing nor passing, it matches none of the questions below.
#include <optional>

#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz::reports {

struct RowOutcome {
  std::optional<PredictedOutcome> predicted;
  std::optional<IndexWrap> index_wrap;
  std::optional<Observed> observed;
  std::optional<Verdict> verdict;

  bool predicted_accept() const { return predicted && predicted->accepted(); }
  bool predicted_refusal() const { return predicted && !predicted->accepted(); }  // refuse or host error
  bool wrap_predicted() const { return index_wrap && index_wrap->wraps(); }
  bool observed_is(Observed::Kind kind) const { return observed && observed->kind == kind; }
  bool verdict_is(Verdict::Kind kind) const { return verdict && verdict->kind == kind; }
  bool failed_with(FailureKind kind) const {
    return verdict && verdict->kind == Verdict::Kind::fail && verdict->failure_kind == kind;
  }
  // fail:nondeterministic: two identical production calls gave different outputs (a race).
  bool nondeterministic() const { return failed_with(FailureKind::nondeterministic); }
  // The verdict fails the run (Verdict::fails_run); text that is no verdict does not.
  bool fails_run() const { return verdict && verdict->fails_run(); }

  friend bool operator==(const RowOutcome&, const RowOutcome&) = default;
};

}  // namespace gridfuzz::reports
