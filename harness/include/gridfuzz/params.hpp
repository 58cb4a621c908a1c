#pragma once
// The axes of a kernel's parameter space, and one point in it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridfuzz {

// An axis is an integer range or a set of named choices. Every axis has a default, so a case can
// set any subset of axes.
struct AxisSpec {
  std::string name;                      // "tokens", "quant", ...
  std::string help;                      // one line, shown by `gridfuzz list`
  std::string default_value;             // "1", "q4_0"
  std::vector<std::string> choices;      // non-empty for a choice axis
  std::int64_t min = 0, max = 0;         // inclusive bounds of an integer axis
  std::int64_t step = 1;                 // valid values are min + k*step (e.g. cols in whole blocks)
  bool is_choice() const { return !choices.empty(); }
};

// AxisSpec written by what each field means, with a typed default, for Kernel::axes():
//   return {Axis::integer("rows", 1, 1 << 20).default_value(1024).help("rows of the batch"),
//           Axis::integer("cols", 32, 8192).step(32).default_value(128),
//           Axis::choice("dtype", {"f16", "bf16"}).help("activation type")};  // default: the first
// Without default_value an integer axis defaults to its min. Header-only: nothing crosses the
// plugin boundary but the AxisSpec it converts to.
class Axis {
 public:
  static Axis integer(std::string name, std::int64_t min, std::int64_t max) {
    Axis a(std::move(name));
    a.spec_.min = min;
    a.spec_.max = max;
    a.spec_.default_value = std::to_string(min);
    return a;
  }
  static Axis choice(std::string name, std::vector<std::string> choices) {
    Axis a(std::move(name));
    a.spec_.default_value = choices.empty() ? std::string() : choices.front();
    a.spec_.choices = std::move(choices);
    return a;
  }
  Axis& help(std::string text) {
    spec_.help = std::move(text);
    return *this;
  }
  Axis& step(std::int64_t step) {  // valid values are min + k*step
    spec_.step = step;
    return *this;
  }
  Axis& default_value(std::int64_t value) {  // of an integer axis
    spec_.default_value = std::to_string(value);
    return *this;
  }
  Axis& default_value(std::string choice) {  // of a choice axis
    spec_.default_value = std::move(choice);
    return *this;
  }
  operator AxisSpec() const { return spec_; }  // NOLINT(google-explicit-constructor): axes() lists

 private:
  explicit Axis(std::string name) {
    spec_.name = std::move(name);
    spec_.help = spec_.name;
  }
  AxisSpec spec_;
};

// Values by axis name, kept as text (exactly as given on the command line or in a replay string)
// and parsed strictly on access.
class Params {
 public:
  Params() = default;
  // All axes at their defaults.
  static Params defaults(const std::vector<AxisSpec>& axes);

  void set(const std::string& name, std::string value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const std::string& get(const std::string& name) const;   // throws std::out_of_range naming the axis
  std::int64_t get_int(const std::string& name) const;     // throws std::invalid_argument if not an integer
  std::uint64_t get_u64(const std::string& name) const;    // same, and >= 0
  const std::map<std::string, std::string>& values() const { return values_; }

  // "name=value,name=value" in axis-name order; parse() reverses it.
  std::string to_string() const;
  static Params parse(const std::string& text);            // throws std::invalid_argument

  // Error text when a value is not valid for its axis (unknown axis, not in choices, out of range).
  static std::optional<std::string> validate(const Params& p, const std::vector<AxisSpec>& axes);

  friend bool operator==(const Params&, const Params&) = default;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace gridfuzz
