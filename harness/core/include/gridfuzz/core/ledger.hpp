#pragma once
// The known-failure ledger: which failures are expected. A checked-in text file, one entry per
// line: `KERNEL VARIANT WHEN` with WHEN one of
//   refused   the case is expected to fail wherever the Predictor says the launch is refused or
//             the host code fails (legacy geometry)
//   wrap      ... wherever an index is predicted to wrap
//   always    every case of this variant is expected to fail
// '#' starts a comment. An expected failure that passes is `unexpected-pass`, which fails the run,
// so the ledger cannot rot.
#include <string>
#include <vector>

#include "gridfuzz/predictor.hpp"

namespace gridfuzz {

struct LedgerEntry {
  std::string kernel, variant, when;
  int line = 0;  // in the ledger's text, 1-based
};

class Ledger {
 public:
  Ledger() = default;
  static Ledger parse(const std::string& text, const std::string& source = "ledger");  // throws std::invalid_argument (with line)
  static Ledger load(const std::string& path);                                         // throws std::runtime_error

  bool expects_failure(const std::string& kernel, const std::string& variant, const Prediction& prediction) const;
  const std::vector<LedgerEntry>& entries() const { return entries_; }

 private:
  std::vector<LedgerEntry> entries_;
};

}  // namespace gridfuzz
