#include "gridfuzz/reports/watch_report.hpp"

#include <algorithm>
#include <cstdio>

#include "detail/csv_text.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports {
namespace {

using watch::KernelHeadroom;
using watch::LimitUse;

const char* const kColumns[] = {
    "rank", "kernel", "symbol", "launches", "refused", "zero_grids", "model_disagreements",
    "max_grid_x", "max_grid_y", "max_grid_z", "max_block_x", "max_block_y", "max_block_z", "max_threads",
    "max_smem_bytes", "max_regs", "grid_x_use", "grid_y_use", "grid_z_use", "block_x_use", "block_y_use",
    "block_z_use", "block_threads_use", "smem_use", "smem_limit", "smem_limit_bytes", "regs_use",
    "tightest", "tightest_use", "first_error", "first_refusal"};

std::string fraction_text(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", f);
  return buf;
}

std::string percent_text(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * f);
  return buf;
}

// Text cut to `width` characters with "..." (a kernel name in the console).
std::string cut(const std::string& s, std::size_t width) {
  return s.size() <= width ? s : s.substr(0, width - 3) + "...";
}

// A readable name short enough for a console column: template arguments shown as <...> and the
// namespaces left out ("at::native::vectorized_elementwise_kernel<4, ...>" ->
// "vectorized_elementwise_kernel<...>"); the CSV and Markdown keep the whole name.
std::string console_name(const std::string& name) {
  std::string flat;
  int depth = 0;
  for (char c : name) {
    if (c == '<' && depth++ == 0) flat += "<...>";
    else if (c == '>' && depth > 0) --depth;
    else if (depth == 0) flat += c;
  }
  int parens = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < flat.size(); ++i) {
    if (flat[i] == '(') ++parens;
    else if (flat[i] == ')') --parens;
    else if (parens == 0 && flat[i] == ':' && flat[i + 1] == ':') start = i + 2;
  }
  return flat.substr(start);
}

std::string pad(const std::string& s, std::size_t width) { return s.size() >= width ? s : s + std::string(width - s.size(), ' '); }

// The uses, largest fraction first, nonzero only, at most n.
std::vector<LimitUse> closest(const KernelHeadroom& k, std::size_t n) {
  std::vector<LimitUse> u;
  for (const LimitUse& x : k.uses)
    if (x.value > 0) u.push_back(x);
  std::stable_sort(u.begin(), u.end(), [](const LimitUse& a, const LimitUse& b) { return a.fraction() > b.fraction(); });
  if (u.size() > n) u.resize(n);
  return u;
}

}  // namespace

std::string watch_csv_header() {
  std::string out;
  std::vector<std::string_view> names(std::begin(kColumns), std::end(kColumns));
  detail::append_record(out, names);
  return out;
}

std::string watch_csv(const std::vector<KernelHeadroom>& kernels) {
  std::string out = watch_csv_header();
  std::size_t rank = 0;
  for (const KernelHeadroom& k : kernels) {
    std::vector<std::string> f = {std::to_string(++rank), valid_utf8(k.name), valid_utf8(k.symbol),
                                  std::to_string(k.launches), std::to_string(k.refused), std::to_string(k.zero_grids),
                                  std::to_string(k.model_disagreements), std::to_string(k.max_grid.x),
                                  std::to_string(k.max_grid.y), std::to_string(k.max_grid.z),
                                  std::to_string(k.max_block.x), std::to_string(k.max_block.y),
                                  std::to_string(k.max_block.z), std::to_string(k.max_threads),
                                  std::to_string(k.max_smem_bytes), std::to_string(k.max_regs)};
    if (k.uses.empty()) {
      f.insert(f.end(), 11, "");
    } else {
      for (std::size_t i = 0; i < 7; ++i) f.push_back(fraction_text(k.uses[i].fraction()));
      f.push_back(fraction_text(k.uses[7].fraction()));
      f.push_back(to_string(k.uses[7].rule));
      f.push_back(std::to_string(k.uses[7].limit));
      f.push_back(fraction_text(k.uses[8].fraction()));
    }
    f.push_back(k.tightest ? to_string(k.tightest->rule) : "");
    f.push_back(k.tightest ? fraction_text(k.tightest->fraction()) : "");
    f.push_back(valid_utf8(k.first_error));
    f.push_back(valid_utf8(k.first_refusal));
    detail::append_record(out, f);
  }
  return out;
}

std::string watch_console_table(const std::vector<KernelHeadroom>& kernels) {
  std::string out = pad("#", 4) + pad("kernel", 42) + pad("launches", 10) + pad("refused", 9) + pad("zero", 6) +
                    pad("grid max", 20) + pad("block max", 14) + pad("smem B", 9) + pad("regs", 6) +
                    "closest to a limit\n";
  std::size_t rank = 0;
  for (const KernelHeadroom& k : kernels) {
    std::string near;
    for (const LimitUse& u : closest(k, 3)) near += (near.empty() ? "" : "; ") + u.describe();
    out += pad(std::to_string(++rank), 4) + pad(cut(terminal_text(console_name(k.name)), 40), 42) + pad(std::to_string(k.launches), 10) +
           pad(std::to_string(k.refused), 9) + pad(std::to_string(k.zero_grids), 6) +
           pad(k.uses.empty() ? "?" : to_string(k.max_grid), 20) + pad(k.uses.empty() ? "?" : to_string(k.max_block), 14) +
           pad(std::to_string(k.max_smem_bytes), 9) + pad(std::to_string(k.max_regs), 6) + (near.empty() ? "-" : near) +
           "\n";
    if (k.refused > 0)
      out += "    refused: " + terminal_text(k.first_error) + ", first at " + terminal_text(k.first_refusal) + "\n";
    if (k.model_disagreements > 0)
      out += "    model disagrees with the driver on " + std::to_string(k.model_disagreements) + " launch(es)\n";
  }
  return out;
}

std::string watch_markdown(const std::vector<KernelHeadroom>& kernels, const DeviceLimits& limits,
                           std::string_view command) {
  std::string out = "## Launch headroom\n\n`gridfuzz watch -- " + markdown_text(command) + "`, judged against " +
                    markdown_text(limits.name) + " (cc " + limits.cc() + "). Use of each limit: the largest value seen of its limit.\n\n"
                    "| # | kernel | launches | refused | zero grids | grid.x | grid.y | grid.z | block.threads | smem | regs | closest |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::size_t rank = 0;
  for (const KernelHeadroom& k : kernels) {
    const auto use = [&](std::size_t i) { return k.uses.empty() ? std::string("?") : percent_text(k.uses[i].fraction()); };
    out += "| " + std::to_string(++rank) + " | " + markdown_text(k.name) + " | " + std::to_string(k.launches) + " | " +
           std::to_string(k.refused) + (k.refused ? " (" + markdown_text(k.first_error) + ")" : "") + " | " +
           std::to_string(k.zero_grids) + " | " + use(0) + " | " + use(1) + " | " + use(2) + " | " + use(6) + " | " +
           use(7) + " | " + use(8) + " | " + (k.tightest ? markdown_text(k.tightest->describe()) : "-") + " |\n";
  }
  return out;
}

}  // namespace gridfuzz::reports
