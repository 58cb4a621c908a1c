#pragma once
// The launch log of `gridfuzz watch`: what the injection library (harness/watch/injection)
// appends, one line per launch record, while the watched program runs, and what gridfuzz reads
// back. This file is the one place that spells the format (docs/WATCH.md, "The launch log").
//
//   # gridfuzz-watch 1 pid=<pid>                      a process started recording
//   launch pid=<pid> n=<count> api=driver|runtime result=<int> error=<name>|- grid=X,Y,Z|?
//          block=X,Y,Z|? dsmem=<B> ssmem=<B> regs=<n> maxdsmem=<B> kernel=<symbol>|?
//   note pid=<pid> <text>                             the injection library says something
//   dropped pid=<pid> n=<count>                       launches not recorded (distinct-launch cap)
//
// A launch line (one line, fields in this order) stands for `n` launches with exactly these
// fields; the library writes it again, with a larger n, as the count grows (at 1, 2, 4, 8, ...
// and at exit), so the largest n of a process is its count. `api=runtime` is a launch the CUDA
// runtime refused before the driver saw it (`result` is then CUDA_ERROR_UNKNOWN and `error` the
// runtime's error name); the geometry is `?` when the runtime's entry point does not describe it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::watch {

// The environment variable that names the log file for the injection library.
inline constexpr const char* kLogPathVariable = "GRIDFUZZ_WATCH_LOG";

enum class LaunchApi { driver, runtime };

struct WatchedLaunch {
  std::int64_t pid = 0;
  std::uint64_t count = 1;
  LaunchApi api = LaunchApi::driver;
  int result = 0;                  // CUresult; 0 = accepted
  std::string error;               // the error's name; empty when accepted
  bool geometry_known = true;
  Dim3 grid, block;
  std::uint64_t dynamic_smem_bytes = 0;
  std::uint64_t static_smem_bytes = 0;
  int regs = 0;                    // registers per thread (cuFuncGetAttribute)
  std::uint64_t max_dynamic_smem_bytes = 0;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (0: unknown)
  std::string symbol;              // the kernel's symbol as the driver names it; empty when unknown

  bool accepted() const { return result == 0; }
  // Every field but the count: the launches one line aggregates.
  std::string key() const;
  friend bool operator==(const WatchedLaunch&, const WatchedLaunch&) = default;
};

// Lines, each ending in '\n'. Text fields are written so that the line stays one line of
// space-separated fields: a space or control character in a symbol or error becomes '?'.
std::string format_header_line(std::int64_t pid);
std::string format_launch_line(const WatchedLaunch& launch);
std::string format_note_line(std::int64_t pid, std::string_view text);
std::string format_dropped_line(std::int64_t pid, std::uint64_t count);

// A launch line (without its '\n'), or why it is not one.
struct ParsedLaunchLine {
  std::optional<WatchedLaunch> launch;
  std::string problem;
};
ParsedLaunchLine parse_launch_line(std::string_view line);

struct LaunchLog {
  std::vector<WatchedLaunch> launches;  // one per process and key, with its largest count
  std::vector<std::string> notes;       // "pid <pid>: <text>"
  std::uint64_t dropped = 0;            // launches the library counted but did not record
  std::vector<std::int64_t> processes;  // the pids that started recording, in order
  std::vector<std::string> problems;    // "line <n>: <why>": lines that were skipped
};

// Reads a whole log. A line that is none of the forms is skipped with a problem; so is a last
// line without its '\n' (the program was stopped while writing it).
LaunchLog read_launch_log(std::string_view text);

}  // namespace gridfuzz::watch
