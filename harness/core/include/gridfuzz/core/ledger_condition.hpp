#pragma once
// The condition of a known-failure ledger entry (ledger.hpp): where on the shape an upstream
// finding fails, as a small explicit predicate over a case's values, parsed once.
//
//   condition  := or
//   or         := and ('||' and)*
//   and        := not ('&&' not)*
//   not        := '!' not | compare | '(' condition ')'
//   compare    := value ('==' | '!=' | '<' | '<=' | '>' | '>=') value
//   value      := term (('+' | '-') term)*
//   term       := power (('*' | '/' | '%') power)*
//   power      := atom ('^' power)?
//   atom       := INTEGER | NAME | "TEXT" | '(' value ')'
//
// NAME is a case's axis (tokens, top_k, experts, proj, quant, ...) or one of the row's columns
// `predicted`, `observed`, `index_wrap` (their vocabulary text). An axis whose value is a decimal
// integer is an integer, any other value is text; text compares with == and != only.
// Arithmetic is signed 64-bit and checked: an overflow, a division by zero, a name the case does
// not have or text where a number is needed leaves a comparison unknown, and a condition holds
// only where it is known to (unknown stays unknown through '!'; '&&' and '||' are known where
// their known operands decide), so an entry never matches by a guess. Example:
//   proj == "gate_up" && tokens * top_k * cols * 9 / 8 % 2^21 == 0
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gridfuzz {

using ConditionValue = std::variant<std::int64_t, std::string>;
// The value of a name in the case being judged, or nullopt when it has none.
using ConditionLookup = std::function<std::optional<ConditionValue>(std::string_view name)>;

class LedgerCondition {
 public:
  // Throws std::invalid_argument saying what is wrong and at which character (1-based).
  static LedgerCondition parse(std::string_view text);

  bool holds(const ConditionLookup& lookup) const;
  const std::string& text() const { return text_; }
  const std::vector<std::string>& names() const { return names_; }  // every NAME it reads, once each

  struct Node;  // the parsed tree (ledger_condition.cpp)

 private:
  std::string text_;
  std::vector<std::string> names_;
  std::shared_ptr<const Node> root_;  // immutable once parsed: copies share it
};

// The lookup of one case: its axes (integers where the value is a decimal integer) and the
// columns `predicted`, `observed`, `index_wrap`. The same for a case being judged and a row read
// back, so a run and its report agree on where a condition holds.
ConditionLookup case_condition_lookup(const std::vector<std::pair<std::string, std::string>>& axes,
                                      std::string predicted, std::string observed, std::string index_wrap);

// The column names a condition may read besides the case's axes.
inline constexpr std::string_view kConditionColumns[] = {"predicted", "observed", "index_wrap"};

}  // namespace gridfuzz
