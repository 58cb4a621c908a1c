// Command-line values on mutated input, at the library level: whole numbers (parse_u64), launch
// extents (parse_dim3), `--set name=value|a,b,c|lo:hi[:step]` (parse_set), their expansion into
// cases (expand_cases) and `--devices all|0,1,...` (parse_device_list).
//
// Each returns its value or throws its documented exception (UsageError; parse_device_list:
// std::invalid_argument or std::out_of_range), and what it returns obeys its header.
#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/app/builtin_kernels.hpp"
#include "gridfuzz/app/case_expansion.hpp"
#include "fuzz_support.hpp"
#include "gridfuzz/registry.hpp"
#include "gridfuzz/engine/worker_pool.hpp"
#include "gridfuzz/app/parse.hpp"

namespace gridfuzz::fuzz {
namespace {

using app::UsageError;

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `text` without its leading zeros ("0" stays).
std::string canonical_number(std::string_view text) {
  const std::size_t first = text.find_first_not_of('0');
  return first == std::string_view::npos ? "0" : std::string(text.substr(first));
}

const std::vector<std::shared_ptr<const Kernel>>& builtin_kernels() {
  static const auto kernels = [] {
    Registry registry;
    app::register_builtin_kernels(registry);
    return registry.all();
  }();
  return kernels;
}

// `--set` texts for one kernel's axes: its defaults, lists and ranges around them.
std::vector<std::string> set_seeds(const Kernel& kernel) {
  std::vector<std::string> seeds;
  for (const AxisSpec& a : kernel.axes()) {
    seeds.push_back(a.name + "=" + a.default_value);
    if (a.is_choice()) {
      std::string list;
      for (const auto& c : a.choices) list += (list.empty() ? "" : ",") + c;
      seeds.push_back(a.name + "=" + list);
    } else {
      const std::int64_t hi = std::min(a.max, a.min + 40 * a.step);
      seeds.push_back(a.name + "=" + std::to_string(a.min) + ":" + std::to_string(hi) + ":" + std::to_string(a.step));
      seeds.push_back(a.name + "=" + std::to_string(a.min) + "," + std::to_string(a.max));
    }
  }
  return seeds;
}

struct Expansion {
  std::shared_ptr<const Kernel> kernel;
  std::vector<app::SetArg> sets;
  bool zip = false;
  std::size_t max_cases = 0;
  Outcome<std::vector<Params>> outcome;
};

// One to three mutated --set values of one kernel, expanded with a small case limit.
Expansion expand_mutated_sets() {
  Expansion x;
  const auto& kernels = builtin_kernels();
  x.kernel = kernels[*rc::gen::inRange<std::size_t>(0, kernels.size())];
  RC_LOG() << "kernel: " << x.kernel->name() << "\n";
  const auto seeds = set_seeds(*x.kernel);
  const auto count = *rc::gen::inRange(1, 4);
  for (int i = 0; i < count; ++i) {
    const std::string text = mutated(seeds, "=,:");
    const auto set = expect_value_or<UsageError>([&] { return app::parse_set(text, true); });
    if (set.value) x.sets.push_back(*set.value);
  }
  x.zip = *rc::gen::arbitrary<bool>();
  x.max_cases = *rc::gen::inRange<std::size_t>(1, 64);
  RC_LOG() << "zip=" << x.zip << " max_cases=" << x.max_cases << "\n";
  x.outcome = expect_value_or<UsageError>([&] { return app::expand_cases(x.kernel->axes(), x.sets, x.zip, x.max_cases); });
  if (!x.outcome.value) RC_LOG() << "rejected: " << cpp_literal(x.outcome.rejected) << "\n";
  return x;
}

}  // namespace

FUZZ_PROP(FuzzCli, ParseU64ReturnsTheNumberOrThrowsUsageError, 3000) {
  const std::string text = mutated({"0", "65536", "18446744073709551615", "007"}, "");
  const auto parsed = expect_value_or<UsageError>([&] { return app::parse_u64(text, "--opt"); });
  if (!parsed.value) return;
  RC_ASSERT(all_digits(text));
  RC_ASSERT(std::to_string(*parsed.value) == canonical_number(text));
}

FUZZ_PROP(FuzzCli, ParseDim3ReturnsExtentsOrThrowsUsageError, 3000) {
  const std::string text = mutated({"1,1,65535", "65536", "7,8", "4294967296,1,0"}, ",");
  const auto parsed = expect_value_or<UsageError>([&] { return app::parse_dim3(text, "--grid"); });
  if (!parsed.value) return;
  std::vector<std::string> parts{""};
  for (const char c : text) {
    if (c == ',')
      parts.emplace_back();
    else
      parts.back().push_back(c);
  }
  RC_ASSERT(parts.size() <= 3u);
  const std::uint64_t got[] = {parsed.value->x, parsed.value->y, parsed.value->z};
  for (std::size_t i = 0; i < 3; ++i) {
    if (i >= parts.size()) {
      RC_ASSERT(got[i] == 1u);  // a missing dimension is 1
      continue;
    }
    RC_ASSERT(all_digits(parts[i]));
    RC_ASSERT(std::to_string(got[i]) == canonical_number(parts[i]));
  }
}

FUZZ_PROP(FuzzCli, ParseSetReturnsValuesOrThrowsUsageError, 3000) {
  const std::string text =
      mutated({"tokens=8190:8194", "tokens=1,2,3", "quant=q4_0", "rows=0:18446744073709551615:184467440737095517",
               "cols=18446744073709551610:18446744073709551615:3"},
              "=,:");
  const bool allow_many = *rc::gen::arbitrary<bool>();
  RC_LOG() << "allow_many=" << allow_many << "\n";
  const auto parsed = expect_value_or<UsageError>([&] { return app::parse_set(text, allow_many); });
  if (!parsed.value) return;
  const app::SetArg& a = *parsed.value;
  RC_ASSERT(!a.name.empty());
  RC_ASSERT(a.name.find('=') == std::string::npos);
  RC_ASSERT(!a.values.empty());
  RC_ASSERT(a.values.size() <= 100000u);  // "range has more than 100000 values" otherwise
  if (!allow_many) RC_ASSERT(a.values.size() == 1u);
  for (const auto& v : a.values) RC_ASSERT(!v.empty());
  const std::string value = text.substr(text.find('=') + 1);
  if (value.find(':') != std::string::npos) {
    // A range: increasing whole numbers from its start, within its end.
    std::uint64_t previous = 0;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      RC_ASSERT(all_digits(a.values[i]));
      const std::uint64_t v = std::stoull(a.values[i]);
      if (i > 0) RC_ASSERT(v > previous);
      previous = v;
    }
    RC_ASSERT(a.values.front() == canonical_number(value.substr(0, value.find(':'))));
  }
}

// expand_cases: cases or UsageError, and every case it returns is valid for the kernel's axes.
FUZZ_PROP(FuzzCli, ExpandCasesReturnsValidCasesOrThrowsUsageError, 1000) {
  const Expansion x = expand_mutated_sets();
  if (!x.outcome.value) return;
  RC_ASSERT(!x.outcome.value->empty());
  for (const Params& p : *x.outcome.value) {
    const auto problem = Params::validate(p, x.kernel->axes());
    if (problem) RC_FAIL("expand_cases returned a case its axes refuse: " + *problem + " (" + p.to_string() + ")");
  }
}

// "Throws UsageError for ... more than `max_cases` cases" (case_expansion.hpp), with or without
// --zip (until a4d8cb9, --zip never counted its cases: tokens=1:3 zipped gave 3 with max_cases 2).
TEST(FuzzCli, ExpandCasesNeverReturnsMoreThanMaxCases) {
  AxisSpec tokens;
  tokens.name = "tokens";
  tokens.default_value = "1";
  tokens.min = 1;
  tokens.max = 100;
  const std::vector<AxisSpec> axes{tokens};
  const std::vector<app::SetArg> sets{app::parse_set("tokens=1:3", true)};
  EXPECT_THROW(app::expand_cases(axes, sets, /*zip=*/false, /*max_cases=*/2), UsageError);
  EXPECT_THROW(app::expand_cases(axes, sets, /*zip=*/true, /*max_cases=*/2), UsageError)
      << "expand_cases(tokens=1:3, zip, max_cases=2) returns 3 cases";
  check_property(1000, [] {
    const Expansion x = expand_mutated_sets();
    if (!x.outcome.value) return;
    if (x.outcome.value->size() > x.max_cases)
      RC_FAIL("expand_cases returned " + std::to_string(x.outcome.value->size()) + " cases, max_cases " +
              std::to_string(x.max_cases));
  });
}

FUZZ_PROP(FuzzCli, ParseDeviceListReturnsOrdinalsOrThrowsItsErrors, 3000) {
  const std::string text = mutated({"all", "0", "0,1,2", "2,0", "7"}, ",");
  const int available = *rc::gen::inRange(0, 9);
  RC_LOG() << "available=" << available << "\n";
  const auto parsed = expect_value_or<std::invalid_argument, std::out_of_range>(
      [&] { return parse_device_list(text, available); });
  if (!parsed.value) return;
  const std::vector<int>& ordinals = *parsed.value;
  RC_ASSERT(!ordinals.empty());
  RC_ASSERT(std::set<int>(ordinals.begin(), ordinals.end()).size() == ordinals.size());
  for (const int v : ordinals) RC_ASSERT(v >= 0 && v < available);
  if (text == "all") RC_ASSERT(ordinals.size() == static_cast<std::size_t>(available));
}

}  // namespace gridfuzz::fuzz
