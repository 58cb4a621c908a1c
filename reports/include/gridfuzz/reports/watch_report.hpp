#pragma once
// gridfuzz watch's report of a program's launches (gridfuzz/watch/launch_headroom.hpp), in three
// forms: a console table, a CSV (columns in docs/WATCH.md) and a Markdown section.
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/watch/launch_headroom.hpp"

namespace gridfuzz::reports {

// The CSV's header line (LF included); a file that starts with it is one watch wrote.
std::string watch_csv_header();
std::string watch_csv(const std::vector<watch::KernelHeadroom>& kernels);

// One line per kernel, ranked: its name without namespaces and template arguments, its launches,
// refusals and zero grids, the largest extents, and the three limits it came closest to; a
// refused kernel's first refusal on the line below.
std::string watch_console_table(const std::vector<watch::KernelHeadroom>& kernels);

// "## Launch headroom" and a table of every kernel with every limit's use.
std::string watch_markdown(const std::vector<watch::KernelHeadroom>& kernels, const DeviceLimits& limits,
                           std::string_view command);

}  // namespace gridfuzz::reports
