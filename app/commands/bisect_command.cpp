// `gridfuzz bisect KERNEL --variant V --axis NAME [--set ...] [--range LO:HI] [--static]`:
// the exact first failing value of one axis, the others fixed, in at most ceil(log2(range))+2
// runs. The last line is `last_pass=<v|none> first_fail=<v|none> rule=<rule or kind>` (observed),
// and on GPU runs the model's answer follows on the same line for comparison.
#include <algorithm>
#include <iostream>

#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/app/case_expansion.hpp"
#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/reporters/console_line.hpp"
#include "gridfuzz/reporters/csv_reporter.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/search/strategies.hpp"
#include "gridfuzz/app/model_option.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/app/session.hpp"

namespace gridfuzz::app {
namespace {

struct BisectArgs {
  std::string kernel, variant, axis, range;
  std::vector<std::string> sets;
  std::string models;  // --model: bisect from each of these profiles' shapes
  std::uint64_t seed = 1;
  EngineOptions engine;
};

std::string value_or_none(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "none"; }

// A fail:<kind> verdict -> its kind ("mismatch"); expected-fail, model-mismatch -> what was observed.
std::string failure_kind(const CaseRecord& record) {
  if (record.verdict.kind == Verdict::Kind::fail && record.verdict.failure_kind)
    return std::string(to_string(*record.verdict.failure_kind));
  if (record.observed.kind == Observed::Kind::refuse) return "refused(" + record.observed.reason + ")";
  if (record.observed.kind != Observed::Kind::accept) return record.observed.to_string();
  return record.oracle.to_string();
}

}  // namespace

Runner add_bisect_command(CLI::App& app, const GlobalOptions& global) {
  auto a = std::make_shared<BisectArgs>();
  auto* cmd = app.add_subcommand("bisect", "the exact first failing value of one axis (others fixed)");
  cmd->add_option("kernel", a->kernel, "kernel name")->required();
  cmd->add_option("--variant", a->variant, "variant (default: the kernel's first)");
  cmd->add_option("--axis", a->axis, "the integer axis to bisect")->required();
  cmd->add_option("--set", a->sets, "the other axes, name=value");
  cmd->add_option("--model", a->models,
                  "bisect from each shape of these model profiles (NAME[,NAME...]; --set overrides a value they set); "
                  "each shape ends with its own result line");
  cmd->add_option("--range", a->range, "LO:HI to search (default: the axis' whole range)");
  cmd->add_option("--seed", a->seed, "input seed (default 1)")->check(whole_number());
  add_engine_options(*cmd, a->engine);
  return [a, &global]() -> int {
    Session session(global, a->engine);
    // A static bisect asks the model only: it runs no case, so it would write no row. --csv is
    // refused rather than silently ignored.
    if (!session.on_device() && !a->engine.csv.empty()) {
      // Why it is static: --static, a preset (there may be a GPU), or no GPU (the note says why).
      const std::string why = a->engine.static_only ? "drop --static to bisect on the GPU, or drop --csv"
                              : global.device.preset ? "--device-preset judges against a preset: drop it to bisect "
                                                       "on the GPU, or drop --csv"
                                                     : "no GPU here: " + session.limits().note;
      throw UsageError("--csv " + a->engine.csv + ": a static bisect runs no case, so it writes no row (" + why + ")");
    }
    const Kernel& k = session.kernel(a->kernel);
    const auto variants = k.variants();
    const std::string variant = a->variant.empty() ? variants.front() : a->variant;
    if (std::find(variants.begin(), variants.end(), variant) == variants.end()) {
      std::string known;
      for (const auto& v : variants) known += (known.empty() ? "" : ", ") + v;
      throw UsageError("--variant: " + k.name() + " has no variant '" + variant + "' (it has " + known + ")");
    }
    const auto axes = k.axes();
    const auto axis = std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& x) { return x.name == a->axis; });
    if (axis == axes.end() || axis->is_choice()) throw UsageError("--axis: '" + a->axis + "' is not an integer axis of " + k.name());
    std::vector<SetArg> sets;
    for (const auto& s : a->sets) {
      sets.push_back(parse_set(s, false));
      if (sets.back().name == a->axis) throw UsageError("--set " + a->axis + ": that is the axis being bisected");
    }
    std::vector<std::pair<std::string, Params>> starts;  // label ("" for the defaults), shape
    if (a->models.empty()) starts.emplace_back("", Params::defaults(axes));
    else
      for (const ModelStart& m : model_starts(k, parse_models(a->models))) starts.emplace_back(m.label, m.params);
    std::int64_t lo = axis->min, hi = axis->max;
    if (!a->range.empty()) {
      // LO:HI, never enumerated: bisection needs about log2(HI-LO) probes, whatever the width.
      const std::size_t colon = a->range.find(':');
      if (colon == std::string::npos || a->range.find(':', colon + 1) != std::string::npos)
        throw UsageError("--range '" + a->range + "' is not LO:HI (e.g. 1:40000)");
      const std::uint64_t range_lo = parse_u64(a->range.substr(0, colon), "--range LO");
      const std::uint64_t range_hi = parse_u64(a->range.substr(colon + 1), "--range HI");
      if (range_lo > range_hi) throw UsageError("--range " + a->range + ": LO is more than HI");
      if (range_lo < static_cast<std::uint64_t>(std::max<std::int64_t>(axis->min, 0)) ||
          range_hi > static_cast<std::uint64_t>(axis->max))
        throw UsageError("--range " + a->range + " leaves the axis' range [" + std::to_string(axis->min) + ", " +
                         std::to_string(axis->max) + "]");
      lo = static_cast<std::int64_t>(range_lo);
      hi = static_cast<std::int64_t>(range_hi);
    }
    if (!session.on_device() && !a->engine.static_only && !session.limits().note.empty())
      std::cerr << "note: " << session.limits().note << "\n";
    std::optional<reporters::CsvReporter> csv;
    if (session.on_device() && !a->engine.csv.empty()) csv.emplace(a->engine.csv);
    auto bisect_from = [&](const Params& start) -> int {
      const Params base = expand_cases(start, axes, sets, false).front();
      auto params_at = [&](std::int64_t v) {
        Params p = base;
        p.set(a->axis, std::to_string(v));
        if (auto err = k.check(p)) throw UsageError(k.name() + " at " + a->axis + "=" + std::to_string(v) + ": " + *err);
        return p;
      };
      // The model's answer (always computed: it is free).
      std::string predicted_rule = "none";
      const BisectResult model = bisect_first_bad(lo, hi, axis->step, [&](std::int64_t v) {
        const Prediction p = predict(bind_case(k, params_at(v), variant)->plan(session.limits().limits), session.limits().limits);
        const bool bad = !p.accepted() || index_wrap_of(p).wraps();
        if (bad) predicted_rule = p.accepted() ? p.index_wrap() : p.outcome;
        return bad;
      });
      const std::string predicted = "last_pass=" + value_or_none(model.last_good) + " first_fail=" +
                                    value_or_none(model.first_bad) + " rule=" + (model.first_bad ? predicted_rule : "none");
      if (!session.on_device()) {
        std::cout << "static: " << model.probes << " model probes\n" << predicted << "\n";
        return kOk;
      }
      std::string observed_rule = "none";
      const BisectResult seen = bisect_first_bad(lo, hi, axis->step, [&](std::int64_t v) {
        const CaseRecord record = session.execute({k.name(), variant, params_at(v), a->seed});
        if (csv) csv->report(record);
        std::cout << a->axis << "=" << v << ": " << reporters::console_line(record) << std::endl;
        const Verdict::Kind verdict = record.verdict.kind;
        if (verdict == Verdict::Kind::skipped || verdict == Verdict::Kind::static_only)
          throw std::runtime_error("bisect: the case at " + a->axis + "=" + std::to_string(v) + " could not run (" +
                                   record.observed.to_string() + ")");
        const bool bad = verdict != Verdict::Kind::pass && verdict != Verdict::Kind::unexpected_pass;
        if (bad) observed_rule = failure_kind(record);
        return bad;
      });
      std::cout << seen.probes << " runs\n";
      std::cout << "last_pass=" << value_or_none(seen.last_good) << " first_fail=" << value_or_none(seen.first_bad)
                << " rule=" << (seen.first_bad ? observed_rule : "none") << " predicted_" << predicted.substr(0, predicted.find(' '))
                << " predicted_" << predicted.substr(predicted.find(' ') + 1, predicted.rfind(' ') - predicted.find(' ') - 1)
                << " predicted_" << predicted.substr(predicted.rfind(' ') + 1) << "\n";
      return (seen.first_bad == model.first_bad) ? kOk : kFound;
    };
    int exit_code = kOk;
    for (const auto& [label, start] : starts) {
      if (!label.empty()) std::cout << "model shape " << label << ":\n";
      exit_code = std::max(exit_code, bisect_from(start));
    }
    return exit_code;
  };
}

}  // namespace gridfuzz::app
