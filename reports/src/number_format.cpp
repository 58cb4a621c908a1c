#include "gridfuzz/reports/number_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gridfuzz::reports {

std::string significant(double value, int digits) {
  if (!std::isfinite(value)) return "-";
  digits = std::max(digits, 1);
  if (value == 0) return "0";
  // Decimals after the point so that `digits` digits are significant; none for large values.
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::clamp(digits - 1 - magnitude, 0, 30);
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  std::string text = buf;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  return text;
}

}  // namespace gridfuzz::reports
