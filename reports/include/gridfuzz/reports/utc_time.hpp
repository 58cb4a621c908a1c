#pragma once
// A moment as the CSV's `started` column writes it: ISO 8601 in UTC to the millisecond,
// "2026-12-01T07:22:54.123Z" (one form, so files sort and compare as text).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gridfuzz::reports {

// Milliseconds since 1970-01-01T00:00:00Z (the system clock) as "YYYY-MM-DDTHH:MM:SS.mmmZ";
// years 1970 to 9999.
std::string utc_time_text(std::int64_t unix_ms);

// The reverse: nullopt for anything that is not exactly that form of a real moment.
std::optional<std::int64_t> parse_utc_time(std::string_view text);

}  // namespace gridfuzz::reports
