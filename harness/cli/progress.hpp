#pragma once
// Progress for long runs: a bar with rate and ETA on a terminal (stderr), plain lines otherwise.
#include <chrono>
#include <cstddef>
#include <string>

namespace gridfuzz::cli {

class Progress {
 public:
  explicit Progress(std::size_t planned);
  // One finished case; `line` is printed as is when not on a terminal (and above the bar when on one).
  void step(const std::string& line, bool important);
  void add_planned(std::size_t n) { planned_ += n; }
  void finish();

 private:
  std::size_t planned_, done_ = 0;
  bool tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace gridfuzz::cli
