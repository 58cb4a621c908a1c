#pragma once
// Between upstream's C++17 side (the shim's ggml_abort) and gridfuzz's C++20 harness: leaves
// `message` and the launches recorded so far in the worker's crash note, then aborts the process
// as upstream's ggml_abort does (abort_bridge.cpp).
#include <string>

namespace gridfuzz::llamacpp {

[[noreturn]] void abort_with_crash_note(const std::string& message);

}  // namespace gridfuzz::llamacpp
