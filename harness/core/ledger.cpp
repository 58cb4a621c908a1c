#include "gridfuzz/core/ledger.hpp"

#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/core/vocabulary.hpp"

#include <sstream>
#include <stdexcept>
#include <string_view>

namespace gridfuzz {
namespace {

// A kernel or variant name as the registry allows it: printable ASCII without space or the replay
// string's separators. Anything else can name no kernel: an entry silently unused (a byte-order
// mark glued to the first name, a NUL, an escape sequence) is refused instead.
bool is_name(const std::string& word) {
  for (const char c : word) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || c == '/' || c == ',' || c == '=' || c == '"' || c == '\\') return false;
  }
  return !word.empty();
}

// The word as it may be printed: every byte outside printable ASCII as \xNN (an exception's text
// ends at a NUL, and the terminal must not see an escape sequence).
std::string shown(const std::string& word) {
  std::string out;
  for (const char c : word.substr(0, 64)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

}  // namespace

Ledger Ledger::parse(const std::string& text, const std::string& source) {
  Ledger l;
  // A UTF-8 byte-order mark (some editors write one) is not part of the first entry's kernel name.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  std::istringstream in(text.starts_with(kByteOrderMark) ? text.substr(kByteOrderMark.size()) : text);
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
    for (const std::string* name : {&e.kernel, &e.variant})
      if (!is_name(*name))
        throw std::invalid_argument(source + ":" + std::to_string(number) + ": '" + shown(*name) +
                                    "' is not a kernel or variant name (printable ASCII, no / , = \" \\)");
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
