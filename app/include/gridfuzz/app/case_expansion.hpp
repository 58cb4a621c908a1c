#pragma once
// `--set name=value` arguments to cases. For `run`, a value may be a list "a,b,c" or an integer
// range "a:b[:step]" (inclusive); the cases are the product of all axes, or with --zip the i-th
// value of every axis together (lists of equal length, single values repeated).
#include <string>
#include <vector>

#include "gridfuzz/params.hpp"

namespace gridfuzz::app {

struct SetArg {
  std::string name;
  std::vector<std::string> values;
};

// "tokens=8190:8194" -> {tokens, [8190..8194]}. Throws UsageError.
SetArg parse_set(const std::string& text, bool allow_many);

// Defaults for every axis, overridden by `sets`. Throws UsageError for unknown axes, invalid
// values, mismatched --zip lengths, or more than `max_cases` cases.
std::vector<Params> expand_cases(const std::vector<AxisSpec>& axes, const std::vector<SetArg>& sets, bool zip,
                                 std::size_t max_cases = 100000);
// The same, starting from `base` instead of the defaults (a model profile's shape, say).
std::vector<Params> expand_cases(const Params& base, const std::vector<AxisSpec>& axes, const std::vector<SetArg>& sets,
                                 bool zip, std::size_t max_cases = 100000);

}  // namespace gridfuzz::app
