#pragma once
// Runs another program to its end, as `gridfuzz watch` does with the program it watches: its
// environment is gridfuzz's plus the given variables, its signals are as gridfuzz found them,
// and gridfuzz itself outlives a Ctrl-C (the program gets it and stops; gridfuzz then reports).
#include <string>
#include <utility>
#include <vector>

namespace gridfuzz::app {

struct ChildExit {
  int status = 0;        // the exit status; 128 + the signal when a signal ended it (as a shell says)
  int signal = 0;        // the signal that ended it, 0 when it exited
  std::string describe() const;  // "exited with status 0", "killed by signal 11 (Segmentation fault)"
};

// Starts argv[0] (searched in PATH) with argv. Throws UsageError when it cannot be started (not
// found, not executable), with the system's reason.
ChildExit run_child_program(const std::vector<std::string>& argv,
                            const std::vector<std::pair<std::string, std::string>>& set_env);

}  // namespace gridfuzz::app
