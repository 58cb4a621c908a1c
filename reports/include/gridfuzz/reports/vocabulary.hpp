#pragma once
// The value vocabulary of the CSV (reports/SCHEMA.md, "Vocabulary"): what predicted, observed,
// verdict, index_wrap, index_type and tier may hold. Writers check rows before they reach a file
// and `report`/`diff` check rows they read, so a typo never becomes a silently unmatched category.
// Each check is the vocabulary's own parse (harness/core/vocabulary.hpp: PredictedOutcome,
// Observed, Verdict, IndexWrap, IndexType, CaseTier), so a value that passes is one the reports
// can read.
//
// Every check returns nullopt for a valid value, or an error message that quotes the bad value.
#include <optional>
#include <string>
#include <string_view>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

// accept | refuse:<rule> | host-error:<what>, rule one of the predictor's rules (grid.zero,
// grid.x, grid.y, grid.z, block.x, block.y, block.z, block.threads, smem.default,
// smem.optin, regs).
std::optional<std::string> check_predicted(std::string_view value);

// accept | refuse:<driver error name> | fault:<error> | timeout | host-error:<what> | oom |
// skipped:<reason> | static. The driver error name is an identifier (CUDA_ERROR_INVALID_VALUE).
std::optional<std::string> check_observed(std::string_view value);

// pass | fail:<kind> | expected-fail | unexpected-pass | model-mismatch | skipped | static.
// kind is a FailureKind: refused, host-error, fault, timeout, oom, mismatch, unwritten,
// out-of-bounds-write, reference.
std::optional<std::string> check_verdict(std::string_view value);

// safe | wrap:<name>
std::optional<std::string> check_index_wrap(std::string_view value);

// empty | int16 | uint16 | int32 | uint32 | int64 | uint64
std::optional<std::string> check_index_type(std::string_view value);

// empty | defaults | profiles | default-sizes | profile-sizes | speed | random | shrink
std::optional<std::string> check_tier(std::string_view value);

// A whole row: the vocabulary columns above (predicted, observed, verdict and index_wrap must
// be non-empty), the numeric columns' syntax (ColumnKind), and the schema version's syntax.
// Text fields must be printable UTF-8. The message names the column. Without
// `check_vocabulary` (a row of a newer minor, which may add values) the vocabulary is not checked.
std::optional<std::string> check_row(const CsvRow& row, bool check_vocabulary = true);

}  // namespace gridfuzz::reports
