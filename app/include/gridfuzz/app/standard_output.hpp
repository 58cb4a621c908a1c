#pragma once
// Standard output that can no longer be written. A pipe whose reader went away (`gridfuzz list |
// head -1`, `gridfuzz sweep | head`) ends the command quietly with exit 141 (128 + SIGPIPE: what
// a shell reports for any program a closed pipe ends): SIGPIPE is ignored (main), so gridfuzz sees
// EPIPE, stops (a sweep at its next row line, any command at its end), and unwinds (the CSV keeps every row it wrote, whole; workers are stopped). Any
// other failed write (a full disk) is the environment: exit 3 with a message.

namespace gridfuzz::app {

// Thrown where a long command finds stdout's reader gone. Not a std::exception: no handler on the
// way mistakes it for an error to report; main returns kStdoutClosed.
struct StdoutClosed {};

// The exit code of a command ended by a closed stdout pipe.
inline constexpr int kStdoutClosed = 141;

// stdout is a pipe (or socket) that no one reads any more.
bool stdout_reader_gone();

// After a flushed write to std::cout (a row line): throws StdoutClosed when it failed because
// stdout's reader is gone. Any other failure is left to main's check at the end (exit 3).
void stop_if_stdout_closed();

}  // namespace gridfuzz::app
