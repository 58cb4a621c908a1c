#include <cctype>
#include <sstream>

#include "detail/plot_parts.hpp"
#include "gridfuzz/core/output_file.hpp"

namespace gridfuzz::reports::detail {

std::string file_slug(const std::string& text) {
  std::string slug;
  for (char c : text) slug += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_') ? c : '-';
  return slug;
}

bool write_text_file(const std::filesystem::path& path, const std::string& text) {
  try {
    write_output_file(OutputFile{path, "--out", "a plot file", {}, {}, true}, text);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

const OutcomeStyle& style_of(Outcome outcome) {
  // Shapes differ as well as colours, so the picture reads in grey too.
  static const OutcomeStyle pass{"pass", 7, 6, "#2ca02c"};
  static const OutcomeStyle refused{"refused (launch or host check)", 9, 8, "#ff7f0e"};
  static const OutcomeStyle wrapped{"index wrapped (fault or wrong output)", 13, 12, "#9467bd"};
  static const OutcomeStyle known{"known failure (ledger)", 5, 4, "#8c564b"};
  static const OutcomeStyle failed{"FAIL (unexpected)", 2, 2, "#d62728"};
  static const OutcomeStyle disagrees{"model disagrees (mismatch, unexpected pass)", 3, 3, "#e377c2"};
  static const OutcomeStyle skipped{"skipped (not run)", 1, 1, "#7f7f7f"};
  switch (outcome) {
    case Outcome::pass: return pass;
    case Outcome::refused: return refused;
    case Outcome::wrapped: return wrapped;
    case Outcome::known: return known;
    case Outcome::failed: return failed;
    case Outcome::disagrees: return disagrees;
    case Outcome::skipped: return skipped;
  }
  return failed;
}

ValueSlots value_slots(const std::set<std::int64_t>& values) {
  ValueSlots slots;
  std::ostringstream tics;
  double position = 0;
  std::optional<std::int64_t> previous;
  for (std::int64_t v : values) {
    if (previous) {
      // Values within 5% (and more than 4 apart) of the previous one belong to its group.
      const bool far = static_cast<long double>(v) > static_cast<long double>(*previous) * 1.05L && v - *previous > 4;
      position += far ? 1.8 : 1.0;
    }
    slots.at[v] = position;
    tics << (previous ? ", " : "(") << '"' << v << "\" " << position;
    previous = v;
  }
  slots.last = position;
  slots.xtics = values.empty() ? "()" : tics.str() + ")";
  return slots;
}

int axis_rank(const std::string& axis) {
  static const char* order[] = {"tokens", "top_k", "experts", "vocab", "rows", "cols", "nvecs"};
  for (int i = 0; i < static_cast<int>(std::size(order)); ++i)
    if (axis == order[i]) return i;
  return static_cast<int>(std::size(order));
}

}  // namespace gridfuzz::reports::detail
