#include "gridfuzz/params.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace gridfuzz {

Params Params::defaults(const std::vector<AxisSpec>& axes) {
  Params p;
  for (const auto& a : axes) p.set(a.name, a.default_value);
  return p;
}

const std::string& Params::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw std::out_of_range("no value for axis '" + name + "'");
  return it->second;
}

std::int64_t Params::get_int(const std::string& name) const {
  const std::string& text = get(name);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    throw std::invalid_argument("axis '" + name + "': '" + text + "' is not a whole number in the 64-bit range");
  return v;
}

std::uint64_t Params::get_u64(const std::string& name) const {
  const std::int64_t v = get_int(name);
  if (v < 0) throw std::invalid_argument("axis '" + name + "': " + std::to_string(v) + " is negative");
  return static_cast<std::uint64_t>(v);
}

std::string Params::to_string() const {
  std::string s;
  for (const auto& [k, v] : values_) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

Params Params::parse(const std::string& text) {
  Params p;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("'" + item + "' is not name=value");
    const std::string name = item.substr(0, eq);
    if (p.has(name)) throw std::invalid_argument("axis '" + name + "' given twice");
    p.set(name, item.substr(eq + 1));
    start = comma + 1;
  }
  return p;
}

std::optional<std::string> Params::validate(const Params& p, const std::vector<AxisSpec>& axes) {
  for (const auto& [name, value] : p.values()) {
    const auto it = std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == name; });
    if (it == axes.end()) {
      std::string known;
      for (const auto& a : axes) known += (known.empty() ? "" : ", ") + a.name;
      return "unknown axis '" + name + "' (axes: " + known + ")";
    }
    if (it->is_choice()) {
      if (std::find(it->choices.begin(), it->choices.end(), value) == it->choices.end()) {
        std::string known;
        for (const auto& c : it->choices) known += (known.empty() ? "" : ", ") + c;
        return "axis '" + name + "': '" + value + "' is not one of " + known;
      }
      continue;
    }
    std::int64_t v = 0;
    try {
      v = p.get_int(name);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    if (v < it->min || v > it->max)
      return "axis '" + name + "': " + value + " is outside [" + std::to_string(it->min) + ", " +
             std::to_string(it->max) + "]";
    if (it->step > 1 && (v - it->min) % it->step != 0)
      return "axis '" + name + "': " + value + " is not " + std::to_string(it->min) + " plus a multiple of " +
             std::to_string(it->step);
  }
  return std::nullopt;
}

}  // namespace gridfuzz
