#include "gridfuzz/app/parse.hpp"

#include <charconv>
#include <cmath>
#include <vector>

namespace gridfuzz::app {

std::uint64_t parse_u64(const std::string& text, const std::string& option) {
  if (text.empty()) throw UsageError(option + ": missing value");
  if (text[0] == '-') throw UsageError(option + ": negative value '" + text + "' (must be >= 0)");
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec == std::errc::result_out_of_range)
    throw UsageError(option + ": '" + text + "' is too large (at most 18446744073709551615)");
  if (ec != std::errc() || ptr != end) throw UsageError(option + ": '" + text + "' is not a whole number");
  return v;
}

Dim3 parse_dim3(const std::string& text, const std::string& option) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() > 3) throw UsageError(option + ": '" + text + "' has more than 3 dimensions");
  Dim3 d;
  const char* axis[] = {".x", ".y", ".z"};
  std::uint64_t* field[] = {&d.x, &d.y, &d.z};
  for (std::size_t i = 0; i < parts.size(); ++i) *field[i] = parse_u64(parts[i], option + axis[i]);
  return d;
}

double parse_threshold(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  double value = 0;
  const char* end = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), end, value);
  if (number.empty() || ec != std::errc() || ptr != end || !(value >= 0) || !std::isfinite(value))
    throw UsageError("--threshold '" + text + "' is not a number (e.g. 10% or 0.1)");
  if (percent) value /= 100;
  if (!percent && value > 1)
    throw UsageError("--threshold '" + text + "' is ambiguous: write 10% or 0.1");
  return value;
}

CLI::Validator whole_number(std::uint64_t max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        try {
          if (parse_u64(text, "value") > max) return "'" + text + "' is more than " + std::to_string(max);
        } catch (const UsageError& e) {
          return e.what();
        }
        return "";
      },
      "INT in [0, " + std::to_string(max) + "]", "whole number");
}

CLI::Validator finite_number(double min, bool exclusive) {
  return CLI::Validator(
      [min, exclusive](std::string& text) -> std::string {
        double v = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, v);
        if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v))
          return "'" + text + "' is not a finite number";
        if (exclusive ? !(v > min) : !(v >= min))
          return "'" + text + "' must be " + (exclusive ? "more than " : "at least ") + CLI::detail::to_string(min);
        return "";
      },
      "NUMBER", "finite number");
}

CLI::Validator share_of_one() {
  const CLI::Validator finite = finite_number(0);
  return CLI::Validator(
      [finite](std::string& text) -> std::string {
        if (std::string err = finite(text); !err.empty()) return err;
        if (std::stod(text) > 1) return "'" + text + "' is more than 1 (a share: 0.05 is 5%)";
        return "";
      },
      "SHARE in [0, 1]", "share");
}

CLI::Validator duration_seconds(bool zero_allowed) {
  const CLI::Validator finite = finite_number(0, !zero_allowed);
  return CLI::Validator(
      [finite](std::string& text) -> std::string {
        if (std::string err = finite(text); !err.empty()) return err;
        if (std::stod(text) > kMaxSeconds)
          return "'" + text + "' seconds is more than " + CLI::detail::to_string(kMaxSeconds) + " (about 31 years)";
        return "";
      },
      "SECONDS", "duration in seconds");
}

}  // namespace gridfuzz::app
