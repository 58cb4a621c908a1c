#pragma once
// Conditions on a case's axis values, as `sweep --where` takes them: `tokens>=8192`,
// `quant=q4_0`, several joined with `,` (all must hold). Integer axes take = != < <= > >=, choice
// axes = and !=. Parsed once here, checked against the axes of the kernels they select from, then
// asked of each case's Params. Text comes in and goes out only through parse and to_string.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/params.hpp"

namespace gridfuzz {

enum class Comparison { equal, not_equal, less, less_equal, greater, greater_equal };
std::string_view to_string(Comparison op);  // "=", "!=", "<", "<=", ">", ">="

// One condition on one axis: `axis op value`.
struct AxisPredicate {
  std::string axis;
  Comparison op = Comparison::equal;
  std::string value;                  // as written: a choice, or an integer
  std::optional<std::int64_t> number; // the value as an integer, when it is one

  // "NAME OP VALUE" (spaces around the parts allowed); std::invalid_argument saying what is wrong.
  static AxisPredicate parse(std::string_view text);
  std::string to_string() const;  // "tokens>=8192"

  // Why the predicate cannot apply to `spec` (same name): an order on a choice axis, or a value
  // that is not an integer on an integer axis. A choice the axis lacks is not an error here (the
  // predicate then never holds): AxisFilter::problem says so when no selected kernel has it.
  std::optional<std::string> mismatch(const AxisSpec& spec) const;
  // Whether `p`'s value of the axis satisfies it; `spec` fits (mismatch() is empty). A value
  // missing from `p` is the axis's default.
  bool holds(const AxisSpec& spec, const Params& p) const;
};

// Predicates that must all hold. A kernel without one of their axes has no case that matches.
class AxisFilter {
 public:
  // A comma-separated list of predicates ("tokens>=8192,quant=q4_0"), added to those already
  // here; std::invalid_argument naming the clause that does not parse.
  void add(std::string_view text);
  bool empty() const { return predicates_.empty(); }
  const std::vector<AxisPredicate>& predicates() const { return predicates_; }
  std::string to_string() const;  // the predicates joined with ','

  // What is wrong with this filter for kernels with these axes (one list per kernel), or nothing:
  // an axis none of them has, a predicate that does not fit an axis of that name (mismatch), or a
  // choice no axis of that name offers.
  std::optional<std::string> problem(const std::vector<std::vector<AxisSpec>>& axes_of_each_kernel) const;
  // Whether a kernel with `axes` can have a matching case at all (it has every predicate's axis).
  bool applies_to(const std::vector<AxisSpec>& axes) const;
  // Whether the case `p` of a kernel with `axes` satisfies every predicate (false when the
  // kernel lacks an axis of one).
  bool matches(const std::vector<AxisSpec>& axes, const Params& p) const;

 private:
  std::vector<AxisPredicate> predicates_;
};

}  // namespace gridfuzz
