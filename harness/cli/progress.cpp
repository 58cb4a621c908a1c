#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace gridfuzz::cli {

Progress::Progress(std::size_t planned) : planned_(planned), tty_(isatty(STDERR_FILENO) == 1) {}

void Progress::step(const std::string& line, bool important) {
  ++done_;
  if (!tty_) {
    std::cout << line << std::endl;
    return;
  }
  if (important) std::cerr << "\r\033[K" << line << "\n";
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done_) / secs : 0;
  const std::size_t total = planned_ > done_ ? planned_ : done_;
  const double eta = rate > 0 ? static_cast<double>(total - done_) / rate : 0;
  const int width = 30, filled = static_cast<int>(width * done_ / (total ? total : 1));
  std::fprintf(stderr, "\r\033[K[%.*s%*s] %zu/%zu  %.1f cases/s  ETA %ds", filled,
               "##############################", width - filled, "", done_, total, rate, static_cast<int>(eta));
  std::fflush(stderr);
}

void Progress::finish() {
  if (tty_) std::cerr << "\r\033[K";
}

}  // namespace gridfuzz::cli
