#pragma once
// Progress for long runs. On a terminal (stderr is a tty): a bar with [n/N], rate and ETA on
// stderr, redrawn in place, with the important row lines (failures) printed above it. Elsewhere
// (a CI log, a pipe): every row line on the rows stream (stdout: the data), and every few seconds
// one progress line on stderr, "[n/N] 42% 12.3 cases/s ETA 1m05s", like pytest's; one more when
// the run finishes. GRIDFUZZ_PROGRESS_SECONDS sets that interval (default 5; 0: after every case).
#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>

namespace gridfuzz::app {

struct ProgressOptions {
  using Clock = std::chrono::steady_clock;
  bool terminal = false;              // draw the bar (stderr is a terminal)
  double interval_s = 5;              // seconds between progress lines when not on a terminal
  std::ostream* rows = nullptr;       // row lines when not on a terminal; nullptr: not printed
  bool rows_on_terminal = false;      // on a terminal, still print every row line on `rows` (stdout
                                      // redirected to a file while stderr shows the bar)
  std::ostream* status = nullptr;     // the bar and the progress lines
  std::function<Clock::time_point()> now = [] { return Clock::now(); };

  // A terminal when stderr is one (rows still go to stdout when it is not one); rows on stdout,
  // status on stderr; the interval from
  // GRIDFUZZ_PROGRESS_SECONDS when it is a number >= 0.
  static ProgressOptions standard();
};

class Progress {
 public:
  explicit Progress(std::size_t planned, ProgressOptions options = ProgressOptions::standard());
  // One finished case; `line` is printed on the rows stream when not on a terminal (and above the
  // bar when on one, if `important`).
  void step(const std::string& line, bool important);
  void finish();

  // "[n/N] 42% 12.3 cases/s ETA 1m05s" (N grows to n when more cases ran than were planned).
  std::string status_line() const;

 private:
  std::size_t planned_, done_ = 0;
  ProgressOptions o_;
  ProgressOptions::Clock::time_point start_, last_line_;
};

// Seconds as "45s", "3m07s", "2h05m".
std::string format_duration(double seconds);

}  // namespace gridfuzz::app
