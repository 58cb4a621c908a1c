#include "gridfuzz/crash_note.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gridfuzz {

void leave_crash_note(const std::string& text) noexcept {
  std::string line = text;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::fprintf(stderr, "gridfuzz: %s\n", line.c_str());
  std::fflush(stderr);
  const char* path = std::getenv(kCrashNoteEnv);
  if (!path || !*path) return;
  // The parent made the file (mkstemp, worker_client.cpp); never written through a link
  // (O_NOFOLLOW: a link there, dangling or not, is not followed, not even to create its target).
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
  if (fd < 0) return;
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = write(fd, line.data() + done, line.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  close(fd);
}

std::string take_crash_note(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  in.close();
  if (const int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY); fd >= 0) close(fd);
  // One line of printable text (it becomes part of a CSV row's observed outcome, which allows no
  // control characters and no surrounding spaces).
  std::string note = ss.str();
  for (char& c : note) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) c = ' ';
  }
  const std::size_t first = note.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return note.substr(first, note.find_last_not_of(' ') - first + 1);
}

}  // namespace gridfuzz
