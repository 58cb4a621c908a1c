#include "gridfuzz/core/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace gridfuzz {

void check_input_size(std::uint64_t bytes, const std::string& name, std::uint64_t max_bytes) {
  if (bytes > max_bytes)
    throw InputFileError(name + " is " + std::to_string(bytes) + " bytes or more, more than the " +
                         std::to_string(max_bytes) + " bytes gridfuzz reads");
}

InputFile::InputFile(const std::string& path, const std::string& what, std::uint64_t max_bytes)
    : name_(what + " '" + path + "'"), max_bytes_(max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd_ < 0) {
    const int error = errno;
    if (error == EIO) throw FileReadError("cannot open " + name_ + ": " + std::strerror(error));
    throw InputFileError("cannot open " + name_ + ": " + std::strerror(error));
  }
  try {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw FileReadError("cannot stat " + name_ + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw InputFileError(name_ + " is a directory, not a file");
    if (!S_ISREG(st.st_mode)) throw InputFileError(name_ + " is not a regular file (a device, FIFO or socket)");
    size_ = static_cast<std::uint64_t>(st.st_size);
    check_input_size(size_, name_, max_bytes_);
  } catch (...) {
    ::close(fd_);  // no destructor runs for a constructor that throws
    throw;
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t InputFile::read(char* buffer, std::size_t size) {
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileReadError("cannot read " + name_ + ": " + std::strerror(errno));
    read_ += static_cast<std::uint64_t>(n);
    // The file may grow while it is read: the limit holds for what is read, too.
    check_input_size(read_, name_, max_bytes_);
    return static_cast<std::size_t>(n);
  }
}

void InputFile::seek(std::uint64_t offset) {
  if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0)
    throw FileReadError("cannot seek in " + name_ + ": " + std::strerror(errno));
  read_ = offset;  // the size check counts the position read up to
}

std::string read_text_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
  InputFile file(path, what, max_bytes);
  std::string text;
  text.reserve(static_cast<std::size_t>(file.size()));
  std::array<char, 1 << 16> buffer{};
  while (const std::size_t n = file.read(buffer.data(), buffer.size())) text.append(buffer.data(), n);
  return text;
}

}  // namespace gridfuzz
