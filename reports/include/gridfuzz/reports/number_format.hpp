#pragma once
// Numbers for people: measured values (times, bandwidths, ratios) rounded to the digits that
// carry meaning, in plain decimal notation (no exponent), for report tables and plot labels.
#include <string>

namespace gridfuzz::reports {

// `value` rounded to `digits` significant digits (at least 1), in fixed notation without
// trailing zeros: 106.71753692626953 -> "106.7", 0.013503 -> "0.0135", 1066.209 -> "1066",
// 123456.7 -> "123457" (the integer part is never cut). "-" for NaN and infinities.
std::string significant(double value, int digits = 4);

}  // namespace gridfuzz::reports
