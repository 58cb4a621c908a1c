#pragma once
// What the CLI tests expect of a refusal: its exit code and one line naming the problem, with no
// raw terminal escape in it.
#include <gtest/gtest.h>

#include <string>

#include "run_gridfuzz.hpp"

namespace gridfuzz::testing {

inline void expect_one_line(const CommandResult& r, int code, const std::string& needle) {
  EXPECT_EQ(r.exit_code, code) << r.output;
  EXPECT_EQ(lines_of(r.output), 1u) << r.output;
  EXPECT_NE(r.output.find(needle), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << "raw ESC reached the terminal";
}

}  // namespace gridfuzz::testing
