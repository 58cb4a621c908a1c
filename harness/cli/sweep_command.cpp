// `gridfuzz sweep [KERNEL...]`: for each kernel and variant, every boundary the model predicts
// (found on the CPU by bisecting each axis) tested at boundary-2..boundary+2, then random shapes
// from rapidcheck (biased to the boundaries); a failing random case is shrunk to a minimal one and
// printed with its replay string. With no kernel named this is the default job.
#include <rapidcheck.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "commands.hpp"
#include "gridfuzz/properties/boundary_gen.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/csv_writer.hpp"
#include "gridfuzz/strategies.hpp"
#include "parse.hpp"
#include "progress.hpp"
#include "session.hpp"
#include "sweep_plan.hpp"

namespace gridfuzz::cli {
namespace {

struct SweepArgs {
  std::vector<std::string> kernels;
  std::size_t cases = 10;
  std::uint64_t seed = 1;
  double time_budget_s = 0;
  bool resume = false;
  std::string shard;  // "I/N": this run takes targets I-1, I-1+N, ... (1-based I)
  std::string save_corpus;  // folder for minimal failing cases (properties/corpus)
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

// Moves an existing report aside (never overwrites what a run wrote).
void set_aside(const std::string& path) {
  if (!std::filesystem::exists(path)) return;
  const auto stamp = std::filesystem::last_write_time(path).time_since_epoch().count();
  const std::string backup = path + "." + std::to_string(stamp) + ".bak";
  std::filesystem::rename(path, backup);
  std::cout << "note: the existing " << path << " was moved to " << backup << " (use --resume to continue it)\n";
}

}  // namespace

Runner add_sweep_command(CLI::App& app, const GlobalOptions& global) {
  auto a = std::make_shared<SweepArgs>();
  a->engine.csv = "gridfuzz-report.csv";
  auto* cmd = app.add_subcommand("sweep", "boundary + random sweep of every kernel and variant (the default job)");
  cmd->add_option("kernel", a->kernels, "kernels to sweep (default: all)");
  cmd->add_option("--cases", a->cases, "random cases per kernel and variant (default 10)");
  cmd->add_option("--seed", a->seed, "seed of the random cases and inputs (default 1)");
  cmd->add_option("--time-budget", a->time_budget_s, "stop starting new cases after this many seconds (default: none)");
  cmd->add_flag("--resume", a->resume, "continue the CSV of a killed sweep: finished cases are not run again");
  cmd->add_option("--save-corpus", a->save_corpus,
                  "save each minimal failing case as DIR/<case id>.replay (the GPU tests replay properties/corpus first)");
  cmd->add_option("--shard", a->shard, "run only shard I of N (I/N, 1-based): kernel x variant targets dealt round-robin");
  add_engine_options(*cmd, a->engine);
  cmd->get_option("--csv")->default_val("gridfuzz-report.csv");
  return [a, &global]() -> int {
    const auto shard = a->shard.empty() ? std::pair<std::size_t, std::size_t>{0, 1} : parse_shard(a->shard);
    Session session(global, a->engine);
    std::vector<const Kernel*> kernels;
    if (a->kernels.empty())
      for (const auto& k : builtin_registry().all()) kernels.push_back(k.get());
    for (const auto& name : a->kernels) kernels.push_back(&session.kernel(name));

    // Rows of finished cases, case id -> row: from the CSV on --resume, and every case run here, so
    // no case is run (or written) twice.
    std::map<std::string, reports::CsvRow> done;
    if (a->resume && std::filesystem::exists(a->engine.csv)) {
      for (const auto& row : reports::read_csv(a->engine.csv).rows) done[row.get("case_id")] = row;
      std::cout << "resuming " << a->engine.csv << ": " << done.size() << " case(s) already done\n";
    } else if (!a->resume) {
      set_aside(a->engine.csv);
    }
    reports::CsvWriter csv(a->engine.csv);
    if (!session.on_device())
      std::cout << "note: " << (session.limits().note.empty() ? "static analysis" : session.limits().note)
                << " (no GPU: the rows record predictions, observed = static)\n";

    const auto t0 = std::chrono::steady_clock::now();
    auto out_of_time = [&] {
      return a->time_budget_s > 0 &&
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > a->time_budget_s;
    };
    std::map<std::string, int> by_verdict;
    std::vector<std::string> failures;
    std::size_t ran = 0, reused = 0;
    bool budget_hit = false;

    std::vector<SweepTarget> targets = plan_sweep(kernels, session.limits().limits);
    if (shard.second > 1) {
      std::vector<SweepTarget> mine;
      for (std::size_t i = shard.first; i < targets.size(); i += shard.second) mine.push_back(std::move(targets[i]));
      std::cout << "shard " << shard.first + 1 << "/" << shard.second << ": " << mine.size() << " of " << targets.size()
                << " kernel x variant target(s)\n";
      targets = std::move(mine);
    }
    std::size_t planned = 0;
    for (const auto& t : targets) planned += t.boundary_cases.size() + a->cases;
    Progress progress(planned);

    // Runs (or reuses) one case and records it; returns its verdict.
    auto execute = [&](const Case& c) -> std::string {
      reports::CsvRow row;
      if (auto it = done.find(c.id()); it != done.end()) {
        row = it->second;
        ++reused;
      } else {
        row = session.execute(c);
        csv.write(row);
        done[c.id()] = row;
        ++ran;
      }
      const std::string verdict = row.get("verdict");
      ++by_verdict[verdict];
      if (is_failure(verdict)) failures.push_back(verdict + "  " + row.get("replay"));
      progress.step(format_row_line(row), is_failure(verdict));
      return verdict;
    };

    // rapidcheck reads its configuration once, from RC_PARAMS.
    const std::string rc_params = "seed=" + std::to_string(a->seed) + " max_success=" + std::to_string(a->cases) +
                                  " max_size=100 verbose_progress=0 verbose_shrinking=0";
    setenv("RC_PARAMS", rc_params.c_str(), 1);

    for (const SweepTarget& t : targets) {
      for (const Case& c : t.boundary_cases) {
        if (out_of_time()) { budget_hit = true; break; }
        Case seeded = c;
        seeded.seed = a->seed;
        execute(seeded);
      }
      if (budget_hit || a->cases == 0) continue;
      std::optional<Case> minimal;
      const Kernel& k = *t.kernel;
      rc::check(k.name() + " " + t.variant + ": no failure at random shapes", [&] {
        const Params p = *random_params(k, t.boundaries);
        RC_PRE(!k.check(p).has_value());
        if (out_of_time()) {
          budget_hit = true;
          return;
        }
        const Case c{k.name(), t.variant, p, a->seed};
        const std::string verdict = execute(c);
        if (is_failure(verdict)) minimal = c;
        RC_ASSERT(!is_failure(verdict));
      });
      if (minimal) {
        std::cout << "minimal failing case: gridfuzz replay '" << minimal->replay() << "'\n";
        if (!a->save_corpus.empty()) std::cout << "saved: " << save_to_corpus(*minimal, a->save_corpus) << "\n";
      }
    }
    progress.finish();

    std::cout << "sweep: " << ran << " case(s) run";
    if (reused) std::cout << ", " << reused << " already done (earlier in this run or in the resumed CSV)";
    std::cout << "; verdicts:";
    for (const auto& [v, n] : by_verdict) std::cout << " " << v << "=" << n;
    std::cout << "\n";
    if (budget_hit) std::cout << "time budget of " << a->time_budget_s << " s reached: remaining cases not started\n";
    for (const auto& f : failures) std::cout << "FAIL " << f << "\n";
    std::cout << "rows: " << a->engine.csv << "\n";
    return failures.empty() ? kOk : kFound;
  };
}

}  // namespace gridfuzz::cli
