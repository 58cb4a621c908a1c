#include "gridfuzz/reports/utc_time.hpp"

#include <chrono>
#include <cstdio>

namespace gridfuzz::reports {
namespace {

constexpr std::int64_t kMsPerDay = 86'400'000;

// Digits only, as a number; nullopt for anything else.
std::optional<int> digits(std::string_view text) {
  int v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::string utc_time_text(std::int64_t unix_ms) {
  using namespace std::chrono;
  const std::int64_t day = unix_ms >= 0 ? unix_ms / kMsPerDay : (unix_ms - kMsPerDay + 1) / kMsPerDay;
  const std::int64_t in_day = unix_ms - day * kMsPerDay;
  const year_month_day date{sys_days{days{day}}};
  char text[64];  // 24 used; room for what the compiler cannot prove of the fields
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<long long>(in_day / 3'600'000), static_cast<long long>(in_day / 60'000 % 60),
                static_cast<long long>(in_day / 1000 % 60), static_cast<long long>(in_day % 1000));
  return text;
}

std::optional<std::int64_t> parse_utc_time(std::string_view t) {
  // YYYY-MM-DDTHH:MM:SS.mmmZ
  if (t.size() != 24 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' || t[19] != '.' ||
      t[23] != 'Z')
    return std::nullopt;
  const auto y = digits(t.substr(0, 4)), mo = digits(t.substr(5, 2)), d = digits(t.substr(8, 2));
  const auto h = digits(t.substr(11, 2)), mi = digits(t.substr(14, 2)), s = digits(t.substr(17, 2));
  const auto ms = digits(t.substr(20, 3));
  if (!y || !mo || !d || !h || !mi || !s || !ms || *y < 1970 || *h > 23 || *mi > 59 || *s > 59) return std::nullopt;
  using namespace std::chrono;
  const year_month_day date{year{*y}, month{static_cast<unsigned>(*mo)}, day{static_cast<unsigned>(*d)}};
  if (!date.ok()) return std::nullopt;
  const std::int64_t days_since = sys_days{date}.time_since_epoch().count();
  return days_since * kMsPerDay + ((*h * 60 + *mi) * 60 + *s) * 1000LL + *ms;
}

}  // namespace gridfuzz::reports
