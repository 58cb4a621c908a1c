#pragma once
// The bug-class table the GPU self-test produces (evidence/bug-class-results.md): one row per trigger.
#include <string>
#include <vector>

namespace gridfuzz::selftest_gpu {

struct TableRow {
  std::string bug_class, kernel, trigger, memory, predicted, detected, time, result;
};

void add_row(TableRow row);
// Markdown table of the rows added so far, in bug-class order.
std::string markdown_table();

}  // namespace gridfuzz::selftest_gpu
