#include "gridfuzz/app/case_expansion.hpp"

#include <algorithm>

#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/checked_math.hpp"

namespace gridfuzz::app {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

}  // namespace

SetArg parse_set(const std::string& text, bool allow_many) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError("--set '" + text + "': expected name=value");
  SetArg a;
  a.name = text.substr(0, eq);
  const std::string value = text.substr(eq + 1);
  if (value.empty()) throw UsageError("--set " + a.name + ": missing value");
  const bool is_list = value.find(',') != std::string::npos;
  const bool is_range = value.find(':') != std::string::npos;
  if ((is_list || is_range) && !allow_many)
    throw UsageError("--set " + a.name + "=" + value + ": lists and ranges are only for `run`");
  if (is_range) {
    const auto parts = split(value, ':');
    if (parts.size() < 2 || parts.size() > 3) throw UsageError("--set " + a.name + ": range is a:b or a:b:step");
    const std::uint64_t lo = parse_u64(parts[0], "--set " + a.name + " (range start)");
    const std::uint64_t hi = parse_u64(parts[1], "--set " + a.name + " (range end)");
    const std::uint64_t step = parts.size() == 3 ? parse_u64(parts[2], "--set " + a.name + " (range step)") : 1;
    if (step == 0) throw UsageError("--set " + a.name + ": range step must be > 0");
    if (hi < lo) throw UsageError("--set " + a.name + ": range end " + parts[1] + " is below its start " + parts[0]);
    if ((hi - lo) / step >= 100000) throw UsageError("--set " + a.name + ": range has more than 100000 values");
    for (std::uint64_t v = lo; v <= hi; v += step) {
      a.values.push_back(std::to_string(v));
      if (hi - v < step) break;
    }
  } else {
    a.values = split(value, ',');
    for (const auto& v : a.values)
      if (v.empty()) throw UsageError("--set " + a.name + ": empty value in list '" + value + "'");
  }
  return a;
}

std::optional<std::uint64_t> case_count(const std::vector<SetArg>& sets, bool zip) {
  std::uint64_t n = 1;
  for (const auto& s : sets) {
    if (zip) {
      n = std::max<std::uint64_t>(n, s.values.size());
      continue;
    }
    const auto product = checked_mul(n, s.values.size());
    if (!product) return std::nullopt;
    n = *product;
  }
  return n;
}

std::vector<Params> expand_cases(const std::vector<AxisSpec>& axes, const std::vector<SetArg>& sets, bool zip,
                                 std::size_t max_cases) {
  return expand_cases(Params::defaults(axes), axes, sets, zip, max_cases);
}

std::vector<Params> expand_cases(const Params& base, const std::vector<AxisSpec>& axes, const std::vector<SetArg>& sets,
                                 bool zip, std::size_t max_cases) {
  for (std::size_t i = 0; i < sets.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (sets[i].name == sets[j].name) throw UsageError("--set " + sets[i].name + " given twice");
  std::vector<Params> cases{base};
  if (zip) {
    std::size_t n = 1;
    for (const auto& s : sets) {
      if (s.values.size() == 1) continue;
      if (n != 1 && s.values.size() != n)
        throw UsageError("--zip: --set " + s.name + " has " + std::to_string(s.values.size()) + " values, others " +
                         std::to_string(n));
      n = s.values.size();
    }
    if (n > max_cases) throw UsageError("more than " + std::to_string(max_cases) + " cases; narrow the lists or ranges");
    cases.assign(n, base);
    for (std::size_t i = 0; i < n; ++i)
      for (const auto& s : sets) cases[i].set(s.name, s.values[s.values.size() == 1 ? 0 : i]);
  } else {
    for (const auto& s : sets) {
      if (cases.size() * s.values.size() > max_cases)
        throw UsageError("more than " + std::to_string(max_cases) + " cases; narrow the lists or ranges");
      std::vector<Params> next;
      for (const auto& c : cases)
        for (const auto& v : s.values) {
          Params p = c;
          p.set(s.name, v);
          next.push_back(std::move(p));
        }
      cases = std::move(next);
    }
  }
  for (const auto& c : cases)
    if (auto err = Params::validate(c, axes)) throw UsageError(*err);
  return cases;
}

}  // namespace gridfuzz::app
