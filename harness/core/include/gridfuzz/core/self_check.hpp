#pragma once
// The self-check: the production call made a second time on the same inputs (re-filled from the
// seed, outputs poisoned again) and its outputs compared with the first call's. Two identical
// calls that differ are a race or another nondeterminism, never a plain mismatch: the verdict is
// fail:nondeterministic, with the count of elements that differ in the oracle text
// (`self:differ:<d>`, OracleResult). It is made when an output check disagrees with the call (the
// split reference, the CPU samples, unwritten outputs), and for a share of the passing cases chosen
// by case id (`--self-check-share`), so a race that happens to give right outputs once is seen too.
#include <cstdint>
#include <optional>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz {

// Whether a case whose oracle found `failure` (nullopt: it passed every check) gets the
// self-check: every failure of an output check (mismatch, reference, unwritten), and a passing
// case when selected_for_self_check. A guard-zone change, a refusal or a fault do not (their
// call cannot be compared, or must not be made again).
bool wants_self_check(const std::optional<FailureKind>& failure, bool selected);

// Whether a passing case is among the share (0..1) re-run as a self-check. Decided by the case id
// alone, so a rerun of a sweep (or `replay` of a row) picks the same cases; 0 picks none, 1 every
// case, and about share x N of N cases in between.
bool selected_for_self_check(const Case& c, double share);

// Whether the split reference is made a second time: the outputs differ from the split reference
// but the two production calls agree. The reference runs the same kernel, so the race may have hit
// it instead (mlx.md finding 6 gave `split:exact:16 ... self:same` at rates that flip from run to
// run); the second reference, compared with the same outputs, tells.
bool wants_reference_again(const std::optional<FailureKind>& failure, std::uint64_t self_differ);

// The failure kind of a case after its self-check: nondeterministic when the two calls differ in
// any element (`self_differ` > 0), or when the split reference made again differs from the outputs
// in another number of elements than the first one did (`reference_again` against
// `split_mismatches`: the kernel's own reference calls disagree), whatever the oracle found first;
// otherwise the oracle's own.
std::optional<FailureKind> after_self_check(const std::optional<FailureKind>& failure, std::uint64_t self_differ,
                                            std::optional<std::uint64_t> reference_again = std::nullopt,
                                            std::uint64_t split_mismatches = 0);

}  // namespace gridfuzz
