// `gridfuzz run KERNEL --variant V --set name=value... [--zip] [--maxfail N] [--csv F]`: run the
// cases (the product of the --set lists/ranges, or zipped), one row each, and print a table.
#include <iostream>
#include <optional>
#include <set>

#include "gridfuzz/app/case_expansion.hpp"
#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/reporters/console_line.hpp"
#include "gridfuzz/reporters/csv_reporter.hpp"
#include "gridfuzz/app/model_option.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/engine/run_batch.hpp"

namespace gridfuzz::app {
namespace {

struct RunArgs {
  std::string kernel;
  std::vector<std::string> variants{};
  std::vector<std::string> sets;
  std::string models;  // --model: start from these profiles' shapes
  bool zip = false;
  std::uint64_t seed = 1;
  std::size_t max_failures = 0;  // --maxfail (0: no limit)
  EngineOptions engine;
};

}  // namespace

int run_cases(Session& session, const std::vector<Case>& cases, const std::string& csv_path, std::size_t max_failures) {
  for (const Case& c : cases) session.validate(c);  // before the CSV is opened: bad input changes no file
  std::optional<reporters::CsvReporter> csv;
  if (!csv_path.empty()) csv.emplace(csv_path);
  reporters::ConsoleReporter console(std::cout);
  if (!session.on_device())
    std::cerr << "note: " << (session.limits().note.empty() ? "static analysis" : session.limits().note)
              << " (observed = static)\n";
  // One batch: the executor's workers take the cases side by side (rows in completion order).
  const BatchResult batch = run_batch(session.executor(), cases, [&](const Case&, const CaseRecord& record) {
    if (csv) csv->report(record);
    console.report(record);
  }, max_failures);
  if (batch.stopped)
    std::cerr << "note: stopped after " << batch.failures << " failing case(s) (--maxfail " << max_failures << "): "
              << cases.size() - batch.ran << " of " << cases.size() << " case(s) not run\n";
  else if (batch.ran != cases.size())
    throw std::logic_error("the executor left " + std::to_string(cases.size() - batch.ran) + " case(s) without a record");
  std::cout << batch.ran << " case(s), " << batch.failures << " failing" << (session.worker_restarts() ? ", worker restarts: " + std::to_string(session.worker_restarts()) : "") << "\n";
  return batch.failures ? kFound : kOk;
}

void add_maxfail_option(CLI::App& cmd, std::size_t& max_failures) {
  cmd.add_option("--maxfail", max_failures,
                 "stop after N failing cases: none starts once N have failed the run (the rows so far are kept; "
                 "exit 1, as for any failure)")
      ->check(whole_number(std::size_t{1} << 30))
      ->check(CLI::Validator(
          [](std::string& text) { return parse_u64(text, "--maxfail") == 0 ? std::string("N must be at least 1") : ""; },
          "N >= 1", "at least one"));
}

Runner add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto a = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "run cases of one kernel (lists a,b,c and ranges a:b[:step] allowed)");
  cmd->add_option("kernel", a->kernel, "kernel name (see `gridfuzz list`)")->required();
  cmd->add_option("--variant", a->variants, "variant(s) to run: NAME[,NAME...], repeatable (default: all)")
      ->delimiter(',');
  cmd->add_option("--set", a->sets, "axis value: name=value, name=a,b,c or name=lo:hi[:step]");
  cmd->add_option("--model", a->models,
                  "start from each shape of these model profiles (NAME[,NAME...]; --set overrides a value they set; "
                  "see `gridfuzz models`)");
  cmd->add_flag("--zip", a->zip, "pair the i-th values of every --set instead of taking the product");
  cmd->add_option("--seed", a->seed, "input seed (default 1)")->check(whole_number());
  add_maxfail_option(*cmd, a->max_failures);
  add_engine_options(*cmd, a->engine);
  return [a, &global]() -> int {
    Session session(global, a->engine);
    const Kernel& k = session.kernel(a->kernel);
    std::vector<SetArg> sets;
    for (const auto& s : a->sets) sets.push_back(parse_set(s, true));
    const auto variants = a->variants.empty() ? k.variants() : a->variants;
    // A value listed twice (tokens=5,5) is one case: one row per case id. Every case is checked
    // before the CSV is opened, so bad input changes no file.
    std::vector<Case> cases;
    std::set<std::string> ids;
    std::vector<Params> starts{Params::defaults(k.axes())};
    if (!a->models.empty()) {
      starts.clear();
      for (const ModelStart& m : model_starts(k, parse_models(a->models))) starts.push_back(m.params);
    }
    // Every expansion counted before any is made: --model shapes x --set values x variants.
    const auto per_start = case_count(sets, a->zip);
    std::optional<std::uint64_t> total = per_start;
    if (total) total = checked_mul(*total, starts.size());
    if (total) total = checked_mul(*total, variants.size());
    if (!total || *total > kMaxExpandedCases)
      throw UsageError("run: " + (total ? std::to_string(*total) : std::string("more than 2^64")) + " cases (" +
                       std::to_string(starts.size()) + " starting shape(s) x " +
                       (per_start ? std::to_string(*per_start) : std::string("2^64+")) + " --set value(s) x " +
                       std::to_string(variants.size()) + " variant(s)), more than the " +
                       std::to_string(kMaxExpandedCases) + " one run makes; narrow the lists, ranges, --model or --variant");
    std::vector<Params> all_params;
    for (const Params& start : starts)
      for (Params& p : expand_cases(start, k.axes(), sets, a->zip)) all_params.push_back(std::move(p));
    for (const auto& params : all_params)
      for (const auto& v : variants) {
        Case c{k.name(), v, params, a->seed};
        if (!ids.insert(c.id()).second) continue;
        session.validate(c);
        cases.push_back(std::move(c));
      }
    return run_cases(session, cases, a->engine.csv, a->max_failures);
  };
}

}  // namespace gridfuzz::app
