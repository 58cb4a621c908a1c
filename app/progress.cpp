#include "gridfuzz/app/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "gridfuzz/app/standard_output.hpp"

namespace gridfuzz::app {

ProgressOptions ProgressOptions::standard() {
  ProgressOptions o;
  o.terminal = isatty(STDERR_FILENO) == 1;
  o.rows_on_terminal = isatty(STDOUT_FILENO) != 1;
  o.rows = &std::cout;
  o.status = &std::cerr;
  if (const char* env = std::getenv("GRIDFUZZ_PROGRESS_SECONDS")) {
    char* end = nullptr;
    const double v = std::strtod(env, &end);
    if (end != env && *end == '\0' && std::isfinite(v) && v >= 0) o.interval_s = v;
  }
  return o;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  return buf;
}

Progress::Progress(std::size_t planned, ProgressOptions options)
    : planned_(planned), o_(std::move(options)), start_(o_.now()), last_line_(start_) {}

std::string Progress::status_line() const {
  const double secs = std::chrono::duration<double>(o_.now() - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done_) / secs : 0;
  const std::size_t total = planned_ > done_ ? planned_ : done_;
  const int percent = total ? static_cast<int>(100 * done_ / total) : 100;
  char buf[128];
  std::snprintf(buf, sizeof buf, "[%zu/%zu] %d%% %.1f cases/s ETA %s", done_, total, percent, rate,
                rate > 0 ? format_duration(static_cast<double>(total - done_) / rate).c_str() : "?");
  return buf;
}

void Progress::step(const std::string& line, bool important) {
  ++done_;
  if (!o_.terminal) {
    if (o_.rows) *o_.rows << line << std::endl;
    if (o_.rows == &std::cout) stop_if_stdout_closed();  // `gridfuzz sweep | head`: nobody reads on
    const auto now = o_.now();
    if (o_.status && std::chrono::duration<double>(now - last_line_).count() >= o_.interval_s) {
      *o_.status << "progress " << status_line() << std::endl;
      last_line_ = now;
    }
    return;
  }
  if (o_.rows && o_.rows_on_terminal) *o_.rows << line << std::endl;
  if (o_.rows_on_terminal && o_.rows == &std::cout) stop_if_stdout_closed();
  if (!o_.status) return;
  if (important) *o_.status << "\r\033[K" << line << "\n";
  const std::size_t total = planned_ > done_ ? planned_ : done_;
  const int width = 30, filled = static_cast<int>(width * done_ / (total ? total : 1));
  *o_.status << "\r\033[K[" << std::string(static_cast<std::size_t>(filled), '#')
             << std::string(static_cast<std::size_t>(width - filled), ' ') << "] " << status_line() << std::flush;
}

void Progress::finish() {
  if (!o_.status) return;
  if (o_.terminal) {
    *o_.status << "\r\033[K" << std::flush;
  } else if (done_ > 0) {
    *o_.status << "progress " << status_line() << " (done)" << std::endl;
  }
}

}  // namespace gridfuzz::app
