#pragma once
// A scratch folder removed with everything in it when the test ends, and whole-file reads and
// writes: what the CLI tests of every area need around the binary they run.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gridfuzz::testing {

struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("gridfuzz-test-" + std::to_string(getpid()) + "-" +
                                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

inline void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace gridfuzz::testing
