#pragma once
// A worker's last words. Host code that is about to end the process (an upstream assertion:
// ggml_abort in llama.cpp) leaves one line here first; the parent (WorkerClient) reads it when the
// worker dies and puts it into the crash's reason, so the case's row says which assertion ended it.
// The note travels through a file named by the environment variable GRIDFUZZ_CRASH_NOTE, which
// the parent sets for each worker it starts.
#include <string>

namespace gridfuzz {

inline constexpr const char* kCrashNoteEnv = "GRIDFUZZ_CRASH_NOTE";

// Writes `text` (one line) to the crash-note file when GRIDFUZZ_CRASH_NOTE is set, and always to
// stderr. Async-signal-unsafe but allocation-free after formatting; never throws.
void leave_crash_note(const std::string& text) noexcept;

// The parent's side: the note in `path` as one line of printable text (control characters become
// spaces, surrounding spaces are cut; "" when none), and the file emptied.
std::string take_crash_note(const std::string& path);

}  // namespace gridfuzz
