#include "gridfuzz/app/standard_output.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iostream>

namespace gridfuzz::app {

bool stdout_reader_gone() {
  struct stat st {};
  if (fstat(STDOUT_FILENO, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return false;
  // The write end of a pipe without a reader polls as POLLERR (a socket's as POLLHUP).
  pollfd p{STDOUT_FILENO, POLLOUT, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

void stop_if_stdout_closed() {
  if (std::cout.good()) return;
  if (stdout_reader_gone()) throw StdoutClosed{};
}

}  // namespace gridfuzz::app
