#pragma once
// `--set name=value` arguments to cases. For `run`, a value may be a list "a,b,c" or an integer
// range "a:b[:step]" (inclusive); the cases are the product of all axes, or with --zip the i-th
// value of every axis together (lists of equal length, single values repeated).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/params.hpp"

namespace gridfuzz::app {

struct SetArg {
  std::string name;
  std::vector<std::string> values;
};

// The most cases one `run` makes, every expansion counted (model shapes x --set values x
// variants).
inline constexpr std::size_t kMaxExpandedCases = 100000;

// "tokens=8190:8194" -> {tokens, [8190..8194]}. Throws UsageError.
SetArg parse_set(const std::string& text, bool allow_many);

// Defaults for every axis, overridden by `sets`. Throws UsageError for unknown axes, invalid
// values, mismatched --zip lengths, or more than `max_cases` cases.
std::vector<Params> expand_cases(const std::vector<AxisSpec>& axes, const std::vector<SetArg>& sets, bool zip,
                                 std::size_t max_cases = kMaxExpandedCases);
// The same, starting from `base` instead of the defaults (a model profile's shape, say).
std::vector<Params> expand_cases(const Params& base, const std::vector<AxisSpec>& axes, const std::vector<SetArg>& sets,
                                 bool zip, std::size_t max_cases = kMaxExpandedCases);

// How many cases expand_cases makes of `sets`, counted without making them: the product of their
// value counts, or with --zip the length of the longest list. nullopt past 2^64.
std::optional<std::uint64_t> case_count(const std::vector<SetArg>& sets, bool zip);

}  // namespace gridfuzz::app
