// `gridfuzz sweep [KERNEL...]`: for each kernel and variant, every boundary the model predicts
// (found on the CPU by bisecting each axis) tested at boundary-2..boundary+2, then random shapes
// from rapidcheck (biased to the boundaries); a failing random case is shrunk to a minimal one and
// printed with its replay string. With no kernel named this is the default job. --devices spreads
// the cases over several GPUs (sweep_run.hpp says how the results stay the same). Row lines and
// the summary go to stdout, notes and progress to stderr; --json prints the summary as one JSON
// object instead (and no row lines: the rows are in the CSV).
#include <fnmatch.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <utility>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/corpus_file.hpp"
#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/schema.hpp"
#include "gridfuzz/reporters/console_line.hpp"
#include "gridfuzz/reporters/csv_reporter.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/app/json_writer.hpp"
#include "gridfuzz/app/model_option.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/app/progress.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/search/sweep_plan.hpp"
#include "gridfuzz/search/sweep_run.hpp"

namespace gridfuzz::app {
namespace {

// --cases: random cases per kernel and variant. Rapidcheck counts them in an int; past 10^7 a
// sweep would run for days anyway.
constexpr std::uint64_t kMaxRandomCases = 10'000'000;
// The share of --time-budget planning may take (SweepPlanOptions::plan_until).
constexpr double kPlanningShareOfBudget = 0.5;

struct SweepArgs {
  std::vector<std::string> kernels;  // names or globs ('gguf.*')
  std::vector<std::string> variants;  // run only these (empty: all)
  std::vector<std::string> tiers;     // boundary tiers to run (empty: all, which is not speed)
  std::string models = "all";         // --model: the profiles whose shapes the sweep starts from too
  std::size_t cases = 100;
  std::uint64_t seed = 1;
  double time_budget_s = 0;
  std::string order = "tiers";     // --order: tiers or cost (SweepOrder)
  std::vector<std::string> costs;  // CSVs whose case_ms price the cases for --order cost
  bool resume = false;
  bool crossings_as_found = false;  // every crossing at its start shape, big ones included
  std::string shard;  // "I/N": this run takes targets I-1, I-1+N, ... (1-based I)
  std::string save_corpus;  // folder for minimal failing cases (properties/corpus)
  std::string devices;      // --devices all|0,1,...: one worker per GPU
  bool json = false;        // the summary as JSON on stdout
  std::vector<std::string> where;  // --where: axis predicates, all must hold
  std::size_t max_failures = 0;    // --maxfail (0: no limit)
  EngineOptions engine;
};

// --shard I/N -> {I-1, N}. Targets (kernel x variant, in plan order) are dealt round-robin, so
// shards of the same build and options never overlap and together cover the whole sweep.
std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw UsageError("--shard '" + text + "' is not I/N (e.g. 2/4)");
  const std::uint64_t i = parse_u64(text.substr(0, slash), "--shard");
  const std::uint64_t n = parse_u64(text.substr(slash + 1), "--shard");
  if (n == 0 || i == 0 || i > n) throw UsageError("--shard '" + text + "': need 1 <= I <= N");
  return {i - 1, n};
}

// What each case cost before on this device, by case id, from the `case_ms` of CSVs of earlier
// runs (the largest time seen of each): rows of another device are left out (another GPU's
// times would rank this one's cases wrongly). A file that is not a gridfuzz CSV is an error; one
// without such times (static rows, an older schema, another device) prices nothing, and says so.
MeasuredCaseMs read_case_costs(const std::vector<std::string>& paths, const std::string& device) {
  MeasuredCaseMs out;
  for (const std::string& path : paths) {
    std::size_t priced = 0;
    for (const auto& row : reports::read_csv(path).rows) {
      const auto ms = row.get_double("case_ms");
      if (!ms || !(*ms >= 0) || row.get("case_id").empty() || row.get("device") != device) continue;
      double& kept = out[row.get("case_id")];
      kept = std::max(kept, *ms);
      ++priced;
    }
    if (priced == 0)
      std::cerr << "note: --costs " << path << " has no case_ms of this device (" << device
                << ") to price a case with\n";
  }
  return out;
}

// --devices all|0,1,... -> ordinals (empty: the usual one device). "all" on a machine without a
// GPU is the static analysis, said out loud; a listed GPU that is not there is an error.
std::vector<int> resolve_devices(const std::string& text, const GlobalOptions& global, const EngineOptions& engine) {
  if (text.empty()) return {};
  if (global.device.device || global.device.preset)
    throw UsageError("--devices excludes --device and --device-preset");
  if (engine.static_only) throw UsageError("--devices runs on GPUs; it excludes --static");
  const int available = device::device_count();
  if (text == "all" && available == 0) return {};
  try {
    return parse_device_list(text, available);
  } catch (const std::out_of_range& e) {
    throw device::NoDeviceError(e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// Kernel names and globs ('gguf.*', fnmatch rules) -> kernels, in registry order, once each. A
// pattern that matches nothing is an error: a typo must not make a green sweep of nothing.
std::vector<const Kernel*> select_kernels(const std::vector<std::string>& patterns, Session& session) {
  std::vector<const Kernel*> out;
  if (patterns.empty()) {
    for (const auto& k : builtin_registry().all()) out.push_back(k.get());
    return out;
  }
  std::set<const Kernel*> taken;
  for (const std::string& pattern : patterns) {
    if (pattern.find_first_of("*?[") == std::string::npos) {
      const Kernel* k = &session.kernel(pattern);
      if (taken.insert(k).second) out.push_back(k);
      continue;
    }
    bool matched = false;
    for (const auto& k : builtin_registry().all())
      if (fnmatch(pattern.c_str(), k->name().c_str(), 0) == 0) {
        matched = true;
        if (taken.insert(k.get()).second) out.push_back(k.get());
      }
    if (!matched) throw UsageError("no kernel matches '" + pattern + "' (see `gridfuzz list`)");
  }
  return out;
}

// Every --variant must be a variant of at least one swept kernel.
void check_variants(const std::vector<const Kernel*>& kernels, const std::vector<std::string>& variants) {
  for (const std::string& v : variants) {
    bool known = false;
    std::set<std::string> all;
    for (const Kernel* k : kernels)
      for (const std::string& kv : k->variants()) {
        all.insert(kv);
        known = known || kv == v;
      }
    if (!known) {
      std::string list;
      for (const auto& x : all) list += (list.empty() ? "" : ", ") + x;
      throw UsageError("--variant: no swept kernel has a variant '" + v + "' (they have " + list + ")");
    }
  }
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", s);
  return buf;
}

std::string join_devices(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices) out += (out.empty() ? "" : ",") + std::to_string(d);
  return out;
}

// Verdicts of finished cases, by case id, from the CSV the writer holds (locked) on --resume. Rows
// judged on another device never count as done here: the file is refused instead, so one CSV
// never mixes the verdicts of two devices.
std::map<std::string, Verdict> resumed_verdicts(const std::string& path, const RunContext& ctx) {
  std::map<std::string, Verdict> done;
  for (const auto& row : reports::read_csv(path).rows) {
    if (row.get("device") != ctx.device || row.get("cc") != ctx.cc)
      throw UsageError("--resume: " + path + " holds rows judged on " + row.get("device") + " (cc " + row.get("cc") +
                       "), this sweep judges " + ctx.device + " (cc " + ctx.cc +
                       "): resume it with the same --device/--device-preset, or sweep into another --csv");
    const auto& verdict = row.outcome().verdict;  // read with the row
    if (!verdict)  // the reader checks the vocabulary: only a reader bug gets here
      throw UsageError("--resume: " + path + ": case " + row.get("case_id") + " has no verdict");
    done[row.get("case_id")] = *verdict;
  }
  return done;
}

// --where options -> one filter, checked against the swept kernels' axes (a typo must not make a
// green sweep of nothing).
AxisFilter where_filter(const std::vector<std::string>& texts, const std::vector<const Kernel*>& kernels) {
  AxisFilter filter;
  try {
    for (const std::string& text : texts) filter.add(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--where: ") + e.what());
  }
  std::vector<std::vector<AxisSpec>> axes;
  for (const Kernel* k : kernels) axes.push_back(k->axes());
  if (const auto problem = filter.problem(axes)) throw UsageError("--where: " + *problem);
  return filter;
}

// The summary as one JSON object.
std::string summary_json(const SweepArgs& a, const SweepSummary& summary, const Session& session, double wall_s,
                         const std::vector<std::string>& saved, int exit_code) {
  JsonWriter j;
  j.begin_object()
      .field("csv", a.engine.csv)
      .field("device", session.context().device)
      .field("cc", session.context().cc)
      .field("on_device", session.on_device());
  j.key("devices").begin_array();
  for (int d : session.devices()) j.value(d);
  j.end_array();
  j.field("ran", summary.ran).field("reused", summary.reused).field("wall_s", wall_s);
  j.field("worker_restarts", session.worker_restarts());
  j.key("verdicts").begin_object();
  for (const auto& [v, n] : summary.by_verdict) j.field(v, n);
  j.end_object();
  j.field("budget_hit", summary.budget_hit).field("max_failures_hit", summary.max_failures_hit);
  j.key("failures").begin_array();
  for (const auto& f : summary.failures) {
    const std::size_t gap = f.find("  ");
    j.begin_object()
        .field("verdict", f.substr(0, gap))
        .field("replay", gap == std::string::npos ? std::string() : f.substr(gap + 2))
        .end_object();
  }
  j.end_array();
  j.key("minimal_failures").begin_array();
  for (std::size_t i = 0; i < summary.minimal_failures.size(); ++i) {
    j.begin_object().field("replay", summary.minimal_failures[i].replay());
    if (i < saved.size()) j.field("saved", saved[i]);
    j.end_object();
  }
  j.end_array();
  j.field("notes", summary.notes).field("exit_code", exit_code).end_object();
  return j.str();
}

}  // namespace

Runner add_sweep_command(CLI::App& app, const GlobalOptions& global) {
  auto a = std::make_shared<SweepArgs>();
  a->engine.csv = "gridfuzz-report.csv";
  auto* cmd = app.add_subcommand("sweep", "boundary + random sweep of every kernel and variant (the default job)");
  cmd->add_option("kernel", a->kernels, "kernels to sweep, names or globs like 'gguf.*' (default: all)");
  cmd->add_option("--variant", a->variants,
                  "run only these variants: NAME[,NAME...], repeatable (the boundaries of every variant are still "
                  "run for them)")
      ->delimiter(',');
  cmd->add_option("--model", a->models,
                  "start shapes: the defaults and these model profiles' shapes (NAME[,NAME...], all, or none; "
                  "default all; see `gridfuzz models`)");
  cmd->add_option("--tiers", a->tiers,
                  "boundary cases to run, by tier: defaults, profiles, default-sizes, profile-sizes, all (those "
                  "four), none (random cases only), or speed (every variant at each start shape, for --timing; "
                  "not in all); default all")
      ->delimiter(',')
      ->check(CLI::IsMember(boundary_tier_names()));
  cmd->add_flag("--crossings-as-found", a->crossings_as_found,
                "plan every crossing at its start shape, also those of cases over 1 GiB that are otherwise planned "
                "with the axes they do not depend on lowered, at every point (otherwise two for those still over 1 GiB), "
                "for every variant, and every repeat of it (otherwise the cheapest copies: docs/MODELS.md, "
                "\"Repeated crossings\")");
  cmd->add_option("--cases", a->cases, "random cases per kernel and variant (default 100, at most 10^7)")
      ->check(whole_number(kMaxRandomCases));
  cmd->add_option("--seed", a->seed, "seed of the random cases and inputs (default 1)")->check(whole_number());
  cmd->add_option("--time-budget", a->time_budget_s,
                  "stop starting new cases this many seconds after the start, planning included (planning stops at half of it; default: none)")
      ->check(duration_seconds(true));
  cmd->add_option("--order", a->order,
                  "boundary cases tier by tier (tiers, the default) or cheapest first across the tiers (cost: a time "
                  "budget then sees the most cases; each kernel x variant's cheapest case first; docs/MODELS.md)")
      ->check(CLI::IsMember({"tiers", "cost"}));
  cmd->add_option("--costs", a->costs,
                  "CSV of an earlier run (a baseline) whose case_ms on this device prices the cases for --order "
                  "cost; repeatable (without: device bytes order them)")
      ->allow_extra_args(false)  // one file per --costs: a kernel name after it is the sweep's, not a file
      ->check(CLI::ExistingFile);
  cmd->add_flag("--resume", a->resume, "continue the CSV of a killed sweep: finished cases are not run again");
  cmd->add_option("--save-corpus", a->save_corpus,
                  "save each minimal failing case as DIR/<case id>.replay (the GPU tests replay properties/corpus first)");
  cmd->add_option("--devices", a->devices,
                  "run on these GPUs at once, one worker each, cases from one queue: all, or ordinals like 0,1 "
                  "(default: the one --device selects; the last --devices given counts)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cmd->add_option("--shard", a->shard, "run only shard I of N (I/N, 1-based): kernel x variant targets dealt round-robin");
  cmd->add_option("--where", a->where,
                  "sweep only the cases whose axes satisfy these predicates: AXIS OP VALUE, OP one of = != < <= > >= "
                  "(choice axes: = and !=), several joined with ',' or repeated (all must hold), e.g. 'tokens>=8192'");
  add_maxfail_option(*cmd, a->max_failures);
  cmd->add_flag("--json", a->json,
                "print the summary as one JSON object on stdout, and no row lines (notes and progress stay on stderr)");
  add_engine_options(*cmd, a->engine);
  cmd->get_option("--csv")->default_val("gridfuzz-report.csv");
  return [a, &global]() -> int {
    const auto started = std::chrono::steady_clock::now();  // the time budget counts from here
    const auto shard = a->shard.empty() ? std::pair<std::size_t, std::size_t>{0, 1} : parse_shard(a->shard);
    Session session(global, a->engine, resolve_devices(a->devices, global, a->engine));
    const std::vector<const Kernel*> kernels = select_kernels(a->kernels, session);
    SweepPlanOptions plan_options{.profiles = parse_models(a->models), .variants = a->variants};
    if (a->crossings_as_found) {
      plan_options.cheaper_crossing_above_bytes = UINT64_MAX;
      plan_options.repeated_size_crossings = 0;
    }
    plan_options.sizes = a->order == "cost";
    // Planning is inside the budget: at most half of it, so the other half runs what was planned
    // (planning every family takes about 35 s on 2 cores, mlx.gather_qmm alone 7 s).
    if (a->time_budget_s > 0)
      plan_options.plan_until =
          started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(a->time_budget_s * kPlanningShareOfBudget));
    check_variants(kernels, a->variants);
    const AxisFilter where = where_filter(a->where, kernels);
    if (!a->save_corpus.empty()) check_corpus_folder(a->save_corpus);
    MeasuredCaseMs costs = read_case_costs(a->costs, session.limits().limits.name);

    // Every argument is checked before the CSV is touched; the writer then locks the file before
    // it reads, sets aside or appends anything.
    reporters::CsvReporter csv(a->engine.csv, {.existing = a->resume ? reports::ExistingCsv::append
                                                                      : reports::ExistingCsv::set_aside});
    if (const auto& set_aside = csv.writer().set_aside_to())
      std::cerr << "note: the existing " << a->engine.csv << " was copied to " << set_aside->string()
                << " and started again (use --resume to continue it)\n";
    std::map<std::string, Verdict> done;
    if (a->resume && csv.writer().rows_at_open() > 0) {
      done = resumed_verdicts(a->engine.csv, session.context());
      std::cerr << "note: resuming " << a->engine.csv << ": " << done.size() << " case(s) already done\n";
    }
    if (const int minor = csv.writer().minor(); minor < reports::kSchemaMinor) {
      std::string newer;
      for (std::size_t c = reports::column_count_of_minor(minor); c < reports::kColumnCount; ++c) {
        if (!newer.empty()) newer += ", ";
        newer += reports::kColumns[c].name;
      }
      std::cerr << "note: " << a->engine.csv << " is of schema " << reports::kSchemaMajor << "." << minor
                << ": its new rows are too, without the columns of later minors (" << newer << ")\n";
    }
    if (!session.on_device())
      std::cerr << "note: " << (session.limits().note.empty() ? "static analysis" : session.limits().note)
                << " (no GPU: the rows record predictions, observed = static)\n";
    else if (session.devices().size() > 1)
      std::cerr << "note: devices " << join_devices(session.devices()) << " (" << session.limits().limits.name
                << "), one worker each, cases from one queue\n";

    SweepPlan plan = plan_sweep(kernels, session.limits().limits, plan_options);
    keep_boundary_tiers(plan, a->tiers.empty() ? std::vector<std::string>{"all"} : a->tiers);
    keep_matching_cases(plan, where);
    std::vector<SweepTarget> targets = std::move(plan.targets);
    if (shard.second > 1) {
      std::vector<SweepTarget> mine;
      for (std::size_t i = shard.first; i < targets.size(); i += shard.second) mine.push_back(std::move(targets[i]));
      std::cerr << "note: shard " << shard.first + 1 << "/" << shard.second << ": " << mine.size() << " of " << targets.size()
                << " kernel x variant target(s)\n";
      targets = std::move(mine);
    }
    std::size_t planned = 0;
    for (const auto& t : targets) planned += t.boundary_cases.size() + a->cases;
    ProgressOptions progress_options = ProgressOptions::standard();
    if (a->json) progress_options.rows = nullptr;  // stdout holds the JSON alone
    Progress progress(planned, progress_options);

    const auto t0 = started;
    const SweepSettings settings{.cases = a->cases,
                                 .seed = a->seed,
                                 .time_budget_s = a->time_budget_s,
                                 .start = started,
                                 .device_bytes = session.limits().limits.total_mem_bytes,
                                 .order = a->order == "cost" ? SweepOrder::cost : SweepOrder::tiers,
                                 .measured_case_ms = std::move(costs),
                                 .where = where,
                                 .max_failures = a->max_failures};
    SweepSummary summary = run_sweep(targets, settings, session.executor(), done, [&](const CaseRecord& record) {
      csv.report(record);
      progress.step(reporters::console_line(record), record.verdict.fails_run());
    });
    progress.finish();
    // What the plan left out (shapes a kernel refuses, cases over the device's memory) is said with
    // the sweep's own notes, at the end and in --json.
    summary.notes.insert(summary.notes.begin(), plan.notes.begin(), plan.notes.end());
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::vector<std::string> saved;
    if (!a->save_corpus.empty())
      for (const Case& minimal : summary.minimal_failures) saved.push_back(save_corpus_case(minimal, a->save_corpus));
    for (const auto& note : summary.notes) std::cerr << "note: " << reports::terminal_text(note) << "\n";
    const int exit_code = summary.failures.empty() ? kOk : kFound;
    if (a->json) {
      std::cout << summary_json(*a, summary, session, wall_s, saved, exit_code);
      return exit_code;
    }
    for (std::size_t i = 0; i < summary.minimal_failures.size(); ++i) {
      std::cout << "minimal failing case: gridfuzz replay '" << summary.minimal_failures[i].replay() << "'\n";
      if (i < saved.size()) std::cout << "saved: " << saved[i] << "\n";
    }
    std::cout << "sweep: " << summary.ran << " case(s) run";
    if (summary.reused) std::cout << ", " << summary.reused << " already done in the resumed CSV";
    std::cout << " in " << format_seconds(wall_s) << " s";
    if (session.devices().size() > 1) std::cout << " on " << session.devices().size() << " devices";
    if (session.worker_restarts()) std::cout << " (worker restarts: " << session.worker_restarts() << ")";
    std::cout << "; verdicts:";
    for (const auto& [v, n] : summary.by_verdict) std::cout << " " << v << "=" << n;
    std::cout << "\n";
    if (summary.budget_hit)
      std::cout << "time budget of " << a->time_budget_s << " s reached: remaining cases not started (ran "
                << summary.ran + summary.reused << " of about " << planned << " planned)\n";
    if (summary.max_failures_hit)
      std::cout << "stopped after " << summary.failures.size() << " failing case(s) (--maxfail " << a->max_failures
                << "): remaining cases not started, failures not shrunk\n";
    for (const auto& f : summary.failures) std::cout << "FAIL " << f << "\n";
    std::cout << "rows: " << a->engine.csv << "\n";
    return exit_code;
  };
}

}  // namespace gridfuzz::app
