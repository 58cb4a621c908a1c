#pragma once
// A row's outcome columns as values of the vocabulary (harness/core/vocabulary.hpp): read once,
// where the text enters the row (CsvRow::set, which the reader calls for every field), so that
// report, diff, JUnit and the plots compare enums and never words. A column whose text is not in
// this reader's vocabulary (empty, a word of a newer minor version, a row read without checks)
// reads as nullopt: neither failing nor passing, it matches none of the questions below.
#include <cstdint>
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

// A verdict in one byte (0: none), for what keeps a verdict per row without the row.
inline std::uint8_t verdict_byte(const std::optional<Verdict>& verdict) {
  if (!verdict) return 0;
  const int failure = verdict->failure_kind ? static_cast<int>(*verdict->failure_kind) + 1 : 0;
  return static_cast<std::uint8_t>(1 + static_cast<int>(verdict->kind) * 16 + failure);
}
inline std::optional<Verdict> verdict_from_byte(std::uint8_t byte) {
  if (byte == 0) return std::nullopt;
  const int code = byte - 1;
  Verdict v;
  v.kind = static_cast<Verdict::Kind>(code / 16);
  if (code % 16 != 0) v.failure_kind = static_cast<FailureKind>(code % 16 - 1);
  return v;
}

}  // namespace gridfuzz::reports
