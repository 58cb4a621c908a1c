#include "gridfuzz/core/ledger.hpp"

#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/core/vocabulary.hpp"

#include <sstream>
#include <stdexcept>

namespace gridfuzz {

Ledger Ledger::parse(const std::string& text, const std::string& source) {
  Ledger l;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    LedgerEntry e;
    e.line = number;
    if (!(words >> e.kernel)) continue;  // blank or comment
    std::string extra;
    if (!(words >> e.variant >> e.when) || (words >> extra))
      throw std::invalid_argument(source + ":" + std::to_string(number) + ": expected 'KERNEL VARIANT WHEN'");
    if (e.when != "refused" && e.when != "wrap" && e.when != "always")
      throw std::invalid_argument(source + ":" + std::to_string(number) + ": WHEN must be refused, wrap or always, not '" +
                                  e.when + "'");
    l.entries_.push_back(e);
  }
  return l;
}

Ledger Ledger::load(const std::string& path) { return parse(read_text_file(path, "the ledger"), path); }

bool Ledger::expects_failure(const std::string& kernel, const std::string& variant, const Prediction& p) const {
  for (const auto& e : entries_) {
    if (e.kernel != kernel || e.variant != variant) continue;
    if (e.when == "always") return true;
    if (e.when == "refused" && !p.accepted()) return true;
    if (e.when == "wrap" && index_wrap_of(p).wraps()) return true;
  }
  return false;
}

}  // namespace gridfuzz
