#pragma once
// The trigger of every self-test kernel: where its legacy variant must first fail, on an sm_90
// device (H200), and how gridfuzz must see it. This is the specification the CPU tests hold the
// model to and the GPU tests hold the device run to (docs/BUG-CLASSES.md gives the shapes).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gridfuzz::selftest {

struct Trigger {
  std::string bug_class;   // "B.1" ...
  std::string kernel;      // "selftest.flat_yz"
  std::string variant;     // the failing variant ("legacy", or "optin")
  std::string axis;        // the axis searched
  std::vector<std::pair<std::string, std::string>> fixed_axes;  // the other axes
  // The bisect range (lo passes, hi fails; under 100,000 values, as `gridfuzz bisect --range`
  // accepts); lo == hi for a single point checked with `gridfuzz run`.
  std::int64_t search_lo = 0, search_hi = 0;
  std::int64_t first_bad = 0;                 // the trigger value on `axis`
  // The model at first_bad: "refuse:<rule>" (launch refused), "wrap:<index>" (launch accepted, an
  // index wraps), or "none" (the model cannot know: launch accepted and every index safe).
  std::string predicted;
  // What the run at first_bad must show: "refused", "unwritten", "mismatch", "out-of-bounds-write" or "fault".
  std::string detected;
  std::string note;        // one line for the table
  bool is_point() const { return search_lo == search_hi; }
};

std::vector<Trigger> triggers();

}  // namespace gridfuzz::selftest
