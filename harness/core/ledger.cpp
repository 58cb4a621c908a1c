#include "gridfuzz/core/ledger.hpp"

#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/core/vocabulary.hpp"

#include <algorithm>
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
    if (byte <= 0x20 || byte >= 0x7f || c == '/' || c == ',' || c == '=' || c == '"' || c == '\\' || c == '#')
      return false;
  }
  return !word.empty();
}

// The word as it may be printed: every byte outside printable ASCII as \xNN (an exception's text
// ends at a NUL, and the terminal must not see an escape sequence).
std::string shown(const std::string& word, std::size_t longest = 64) {
  std::string out;
  for (const char c : word.substr(0, longest)) {
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

// '#' starts a comment at the start of a line or after a space (a finding's anchor holds one).
void strip_comment(std::string& line) {
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      line.resize(i);
      return;
    }
}

// FILE.md#ANCHOR: a file of docs/upstream and an anchor in it (lower case, digits, '-', '_').
bool is_finding(const std::string& word) {
  const auto hash = word.find('#');
  if (hash == std::string::npos || hash < 4 || word.compare(hash - 3, 3, ".md") != 0 || hash + 1 == word.size())
    return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    const bool name_char = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (i == hash) continue;
    if (i < hash ? !(name_char || c == '.') : !name_char) return false;
  }
  return true;
}

// FILE:LINE or FILE:FIRST-LAST, FILE a path of printable ASCII without ':' or '#' (a '#' would read
// as a comment once a space came before it: it has no place in an entry's words but the finding).
bool is_source(const std::string& word) {
  const auto colon = word.find(':');
  if (colon == std::string::npos || colon == 0 || word.find(':', colon + 1) != std::string::npos) return false;
  for (std::size_t i = 0; i < colon; ++i)
    if (static_cast<unsigned char>(word[i]) <= 0x20 || static_cast<unsigned char>(word[i]) >= 0x7f || word[i] == '#')
      return false;
  const std::string lines = word.substr(colon + 1);
  const auto dash = lines.find('-');
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  };
  return dash == std::string::npos ? digits(lines) : digits(lines.substr(0, dash)) && digits(lines.substr(dash + 1));
}

// fail:KIND|fail:KIND...: each a failure verdict of the vocabulary.
std::vector<FailureKind> failure_kinds(const std::string& word, const std::string& where) {
  std::vector<FailureKind> kinds;
  std::size_t start = 0;
  for (;;) {
    const std::size_t bar = word.find('|', start);
    const std::string part = word.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    const auto verdict = Verdict::parse(part);
    if (!verdict || verdict->kind != Verdict::Kind::fail || !verdict->failure_kind) {
      std::string known;
      for (const FailureKind k : kFailureKinds) known += (known.empty() ? "fail:" : ", fail:") + std::string(to_string(k));
      throw std::invalid_argument(where + "'" + shown(part) + "' is not a failure verdict (" + known + ")");
    }
    kinds.push_back(*verdict->failure_kind);
    if (bar == std::string::npos) return kinds;
    start = bar + 1;
  }
}

}  // namespace

std::string LedgerEntry::text() const {
  if (!is_finding()) return kernel + " " + variant + " " + when;
  std::string out = kernel + " " + variant + " ";
  for (std::size_t i = 0; i < kinds.size(); ++i) out += (i ? "|fail:" : "fail:") + std::string(to_string(kinds[i]));
  out += " " + finding + " " + source;
  if (condition) out += " if " + condition->text();
  return out;
}

Ledger Ledger::parse(const std::string& text, const std::string& source) {
  Ledger l;
  // A UTF-8 byte-order mark (some editors write one) is not part of the first entry's kernel name.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  std::istringstream in(text.starts_with(kByteOrderMark) ? text.substr(kByteOrderMark.size()) : text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    strip_comment(line);
    const std::string where = source + ":" + std::to_string(number) + ": ";
    std::string condition_text;  // after " if "
    if (const auto at = line.find(" if "); at != std::string::npos) {
      condition_text = line.substr(at + 4);
      line.resize(at);
    }
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty() && condition_text.empty()) continue;  // blank or comment
    LedgerEntry e;
    e.line = number;
    if (w.size() == 3 && condition_text.empty() && !w[2].starts_with("fail:")) {
      e.kernel = w[0], e.variant = w[1], e.when = w[2];
    } else if (w.size() == 5) {
      e.kernel = w[0], e.variant = w[1];
      e.kinds = failure_kinds(w[2], where);
      e.finding = w[3], e.source = w[4];
      if (!is_finding(e.finding))
        throw std::invalid_argument(where + "'" + shown(e.finding) +
                                    "' is not a finding (FILE.md#ANCHOR of docs/upstream, e.g. llama-cpp.md#finding-3)");
      if (!is_source(e.source))
        throw std::invalid_argument(where + "'" + shown(e.source) + "' is not an upstream FILE:LINE (e.g. mmq.cuh:919-924)");
      if (!condition_text.empty()) {
        try {
          e.condition = LedgerCondition::parse(condition_text);
        } catch (const std::invalid_argument& bad) {
          throw std::invalid_argument(where + shown(bad.what(), 400));
        }
      }
    } else {
      throw std::invalid_argument(where + "expected 'KERNEL VARIANT WHEN' or 'KERNEL VARIANT fail:KIND FINDING "
                                          "FILE:LINE [if CONDITION]'");
    }
    for (const std::string* name : {&e.kernel, &e.variant})
      if (!is_name(*name))
        throw std::invalid_argument(where + "'" + shown(*name) +
                                    "' is not a kernel or variant name (printable ASCII, no / , = \" \\ #)");
    if (!e.is_finding() && e.when != "refused" && e.when != "wrap" && e.when != "always")
      throw std::invalid_argument(where + "WHEN must be refused, wrap or always, not '" + shown(e.when) + "'");
    for (const LedgerEntry& other : l.entries_)
      if (e.is_finding() && other.kernel == e.kernel && other.variant == e.variant && other.finding == e.finding)
        throw std::invalid_argument(where + "a second entry for " + e.kernel + " " + e.variant + " " + e.finding +
                                    " (line " + std::to_string(other.line) + "): list its kinds as fail:A|fail:B");
    l.entries_.push_back(std::move(e));
  }
  return l;
}

Ledger Ledger::load(const std::string& path) { return parse(read_text_file(path, "the ledger"), path); }

bool Ledger::expects_failure(const std::string& kernel, const std::string& variant, const Prediction& p) const {
  for (const auto& e : entries_) {
    if (e.kernel != kernel || e.variant != variant || e.is_finding()) continue;
    if (e.when == "always") return true;
    if (e.when == "refused" && !p.accepted()) return true;
    if (e.when == "wrap" && index_wrap_of(p).wraps()) return true;
  }
  return false;
}

const LedgerEntry* Ledger::known_failure(const std::string& kernel, const std::string& variant, FailureKind kind,
                                         const ConditionLookup& lookup) const {
  for (const auto& e : entries_) {
    if (!e.is_finding() || e.kernel != kernel || e.variant != variant) continue;
    if (std::find(e.kinds.begin(), e.kinds.end(), kind) == e.kinds.end()) continue;
    if (e.reached(lookup)) return &e;
  }
  return nullptr;
}

}  // namespace gridfuzz
