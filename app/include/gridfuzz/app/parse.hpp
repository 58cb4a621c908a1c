#pragma once
// Strict parsing of command-line values. Every malformed value is an error naming the option
// and the text; nothing is clamped, wrapped or guessed.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::app {

// Bad input (exit code 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A non-negative decimal integer that fits in 64 bits ("-1", "1e3", "0x10", "", "1 " are errors).
std::uint64_t parse_u64(const std::string& text, const std::string& option);

// "X[,Y[,Z]]" with missing dimensions 1.
Dim3 parse_dim3(const std::string& text, const std::string& option);

// --threshold of diff and bench-diff: "10%" or "0.1" -> 0.1. A bare number above 1 is refused: 10
// could mean 10% or 1000%. The number is decimal (from_chars: no hex "0x1", no leading space or
// '+', as every numeric option).
double parse_threshold(const std::string& text);

// Validators for numeric options, checked on the text before CLI11 converts it (so "-1" never
// wraps into an unsigned option, and "nan" or "inf" never reach a number of seconds).
// A decimal whole number in [0, max].
CLI::Validator whole_number(std::uint64_t max = std::numeric_limits<std::uint64_t>::max());
// A finite decimal number >= min (> min when `exclusive`).
CLI::Validator finite_number(double min, bool exclusive = false);
// A share: a finite decimal number in [0, 1] (--self-check-share).
CLI::Validator share_of_one();
// A number of seconds (--time-budget, --timeout): finite, > 0 (>= 0 when `zero_allowed`: "no
// limit"), at most kMaxSeconds, so that every conversion to a clock's integer ticks fits.
inline constexpr double kMaxSeconds = 1e9;  // about 31 years
CLI::Validator duration_seconds(bool zero_allowed);

}  // namespace gridfuzz::app
