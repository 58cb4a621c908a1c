#include "selftest_table.hpp"

#include <algorithm>
#include <mutex>

namespace gridfuzz::selftest_gpu {
namespace {

std::mutex mutex;
std::vector<TableRow>& rows() {
  static std::vector<TableRow> r;
  return r;
}

}  // namespace

void add_row(TableRow row) {
  std::lock_guard lock(mutex);
  rows().push_back(std::move(row));
}

std::string markdown_table() {
  std::lock_guard lock(mutex);
  auto sorted = rows();
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.bug_class < b.bug_class; });
  std::string out =
      "| class | kernel (variant) | trigger shape | memory used | predicted | detected as | time to detect | result |\n"
      "|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : sorted)
    out += "| " + r.bug_class + " | " + r.kernel + " | " + r.trigger + " | " + r.memory + " | " + r.predicted + " | " +
           r.detected + " | " + r.time + " | " + r.result + " |\n";
  return out;
}

}  // namespace gridfuzz::selftest_gpu
