#include "gridfuzz/core/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace gridfuzz {
namespace {

// Closes the descriptor on every path out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
  const std::string name = what + " '" + path + "'";
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
  Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)};
  if (file.fd < 0) {
    const int error = errno;
    if (error == EIO) throw FileReadError("cannot open " + name + ": " + std::strerror(error));
    throw InputFileError("cannot open " + name + ": " + std::strerror(error));
  }
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) throw FileReadError("cannot stat " + name + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputFileError(name + " is a directory, not a file");
  if (!S_ISREG(st.st_mode)) throw InputFileError(name + " is not a regular file (a device, FIFO or socket)");
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw InputFileError(name + " is " + std::to_string(st.st_size) + " bytes, more than the " +
                         std::to_string(max_bytes) + " gridfuzz reads");
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  std::array<char, 1 << 16> buffer{};
  for (;;) {
    const ssize_t n = ::read(file.fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileReadError("cannot read " + name + ": " + std::strerror(errno));
    if (n == 0) return text;
    // The file may grow while it is read: the limit holds for what is read, too.
    if (text.size() + static_cast<std::size_t>(n) > max_bytes)
      throw InputFileError(name + " grew past the " + std::to_string(max_bytes) + " bytes gridfuzz reads");
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
}

}  // namespace gridfuzz
