#include "gridfuzz/engine/worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <charconv>
#include <exception>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>

namespace gridfuzz {
namespace {

// Cases one worker takes together and runs back to back: one reference group, or a batch of
// cases that must have the GPU alone. keep_reference[k]: case k asks its worker to keep its split
// reference for case k + 1 (of the same group).
struct Taken {
  std::vector<std::size_t> cases;
  std::vector<bool> keep_reference;
  CaseNeed need;
};

// A failure beside other cases that the ledger's finding names, with the call made (no fault, no
// out of memory): wrong values in a case's own memory cannot come from another context, so that
// verdict is the case's; running it again alone would cost a whole case and an emptied GPU.
bool settled_beside_others(const WorkerReply& reply) {
  if (reply.status != WorkerReply::Status::record) return false;
  const CaseRecord& r = reply.record;
  if (r.verdict.kind == Verdict::Kind::pass) return true;
  return r.verdict.kind == Verdict::Kind::expected_fail && !r.finding.empty() &&
         r.observed.kind == Observed::Kind::accept;
}

}  // namespace

WorkerPool::WorkerPool(std::vector<int> devices, std::function<std::vector<std::string>(int)> make_argv,
                       WorkerPoolOptions options)
    : devices_(std::move(devices)), options_(options) {
  if (devices_.empty()) throw std::invalid_argument("WorkerPool: no device");
  if (options_.workers_per_device < 1) throw std::invalid_argument("WorkerPool: workers per device must be >= 1");
  const bool shared = options_.workers_per_device > 1 && options_.memory_capacity > 0;
  for (int d : devices_) {
    MemoryAdmission* admission = nullptr;
    if (shared) admission = admissions_.emplace_back(std::make_unique<MemoryAdmission>(options_.memory_capacity)).get();
    for (int w = 0; w < options_.workers_per_device; ++w)
      slots_.push_back({d, std::make_unique<WorkerClient>(make_argv(d), options_.timeout_s), admission});
  }
}

int WorkerPool::restarts() const {
  int n = 0;
  for (const auto& s : slots_) n += s.worker->restarts();
  return n;
}

void WorkerPool::run(const std::vector<std::string>& replays, const std::function<void(const Result&)>& on_result,
                     const std::function<bool()>& should_stop,
                     const std::function<CaseNeed(std::size_t)>& need_of) {
  std::size_t next = 0;
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex take;    // hands out the cases and their places in their device's line, in one order
  std::mutex report;
  const bool side_by_side = options_.workers_per_device > 1;
  // The case after the last one taken, when a worker looked at it to end its group (under `take`).
  std::optional<std::pair<std::size_t, CaseNeed>> looked_at;
  // Cases that must have the GPU alone, set aside as they come (under `take`) and run as one batch
  // under one alone grant: each of them taken in its turn would wait for the GPU to empty, and one
  // in six of a plan's cases is such a case, so four workers ran one case at a time on average
  // (evidence/2026-12-04-h200-cost-order, run1). A batch starts once it holds options_.alone_batch
  // groups, its first has waited options_.alone_wait_s, or nothing else is left.
  std::vector<Taken> set_aside;
  std::chrono::steady_clock::time_point first_set_aside;
  const auto batch_of_set_aside = [&] {
    Taken batch;
    batch.need.alone = true;
    for (Taken& t : set_aside) {
      batch.need.bytes = std::max(batch.need.bytes, t.need.bytes);
      batch.cases.insert(batch.cases.end(), t.cases.begin(), t.cases.end());
      batch.keep_reference.insert(batch.keep_reference.end(), t.keep_reference.begin(), t.keep_reference.end());
    }
    set_aside.clear();
    return batch;
  };
  std::vector<std::thread> threads;
  for (Slot& slot : slots_) {
    threads.emplace_back([&, slot_ptr = &slot] {
      Slot& s = *slot_ptr;
      // Under `take`. Without need_of, a case needs the whole GPU (when it is shared at all).
      const auto need_at = [&](std::size_t i) {
        if (looked_at && looked_at->first == i) return looked_at->second;
        const CaseNeed n = need_of ? need_of(i) : CaseNeed{s.admission ? s.admission->capacity() : 0, false};
        looked_at.emplace(i, n);
        return n;
      };
      const auto stopping = [&] { return failed || (should_stop && should_stop()); };
      // Under `take`: the next group in the input (the cases of one reference group, back to back).
      const auto next_group = [&] {
        Taken t;
        t.need = need_at(next);
        t.cases.push_back(next++);
        while (t.need.reference_group != 0 && next < replays.size()) {
          const CaseNeed n = need_at(next);
          if (n.reference_group != t.need.reference_group || n.alone != t.need.alone) break;
          t.need.bytes = std::max(t.need.bytes, n.bytes);
          t.cases.push_back(next++);
        }
        for (std::size_t k = 0; k < t.cases.size(); ++k) t.keep_reference.push_back(k + 1 < t.cases.size());
        return t;
      };
      // Under `take`: what this worker runs next, or nothing when all is taken. Only cases that
      // share a GPU (an admission) are set aside; with one worker a GPU every case is alone.
      const auto take_next = [&]() -> std::optional<Taken> {
        const auto now = std::chrono::steady_clock::now();
        if (!set_aside.empty() && now - first_set_aside >= std::chrono::duration<double>(options_.alone_wait_s)) return batch_of_set_aside();
        while (next < replays.size()) {
          Taken t = next_group();
          if (!s.admission || !t.need.alone) return t;
          if (set_aside.empty()) first_set_aside = now;
          set_aside.push_back(std::move(t));
          if (set_aside.size() >= options_.alone_batch) return batch_of_set_aside();
        }
        if (!set_aside.empty()) return batch_of_set_aside();
        return std::nullopt;
      };
      try {
        for (;;) {
          Taken taken;  // run back to back on this worker
          std::uint64_t ticket = 0;
          {
            std::lock_guard<std::mutex> lock(take);
            if (stopping()) break;
            std::optional<Taken> t = take_next();
            if (!t) break;
            taken = std::move(*t);
            if (s.admission) ticket = s.admission->queue();
          }
          const std::vector<std::size_t>& group = taken.cases;
          const CaseNeed& need = taken.need;
          MemoryAdmission::Grant grant;
          if (s.admission) grant = s.admission->admit(ticket, need.bytes, need.alone);
          bool alone = need.alone;  // once a case of the group ran again alone, the rest run alone too
          for (std::size_t k = 0; k < group.size(); ++k) {
            // It may have waited for memory: a stop asked meanwhile still holds. A group cut short
            // retires its worker, so no reference kept for the next case outlives the group.
            if (stopping()) {
              if (k > 0 && taken.keep_reference[k - 1]) s.worker->retire();
              break;
            }
            const std::size_t i = group[k];
            const bool keep_reference = taken.keep_reference[k];
            Result r;
            r.index = i;
            r.device = s.device;
            r.reply = s.worker->run(replays[i], keep_reference);
            // A worker that died without a word may have been killed from outside: give the case
            // one more chance on a fresh worker before recording the crash. Timeouts are not retried.
            if (r.reply.status == WorkerReply::Status::crashed) {
              r.reply = s.worker->run(replays[i], keep_reference);
              r.attempts = 2;
            }
            // Anything but a pass beside other cases (out of memory, a fault that reached this
            // context from another, a wrong result): again with the GPU to itself, behind the cases
            // already in line, and that verdict is the case's. A timeout is not run again (it would
            // cost as much again); a case that ran alone already keeps its verdict.
            if (side_by_side && !alone && !settled_beside_others(r.reply) &&
                r.reply.status != WorkerReply::Status::timed_out) {
              if (s.admission) {
                grant.release();
                std::uint64_t again = 0;
                {
                  std::lock_guard<std::mutex> lock(take);
                  again = s.admission->queue();
                }
                grant = s.admission->admit(again, need.bytes, /*alone=*/true);
              }
              r.reply = s.worker->run(replays[i], keep_reference);
              ++r.attempts;
              r.ran_alone = true;
              alone = true;
            }
            if (options_.process_per_case) s.worker->retire();
            std::lock_guard<std::mutex> lock(report);
            if (failed) break;
            try {
              on_result(r);
            } catch (...) {
              // Under the same lock as the report, so no other result is reported after it.
              failed = true;
              first_error = std::current_exception();
              break;
            }
          }
          grant.release();
          if (failed) break;
        }
      } catch (...) {
        // An error here (a row that cannot be written, a worker that cannot start) ends the run
        // for every worker and reaches the caller; thrown out of a thread it would end the process.
        std::lock_guard<std::mutex> lock(report);
        if (!failed.exchange(true)) first_error = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

std::vector<int> parse_device_list(const std::string& text, int available) {
  std::vector<int> out;
  if (text == "all") {
    for (int i = 0; i < available; ++i) out.push_back(i);
    if (out.empty()) throw std::invalid_argument("--devices all: no CUDA device present");
    return out;
  }
  std::set<int> seen;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    int v = -1;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || v < 0)
      throw std::invalid_argument("--devices: '" + item + "' is not a device ordinal (use all or 0,1,...)");
    if (!seen.insert(v).second) throw std::invalid_argument("--devices: device " + item + " listed twice");
    out.push_back(v);
    start = comma + 1;
  }
  // Range last: a malformed list is a usage error on any machine.
  for (int v : out)
    if (v >= available)
      throw std::out_of_range("--devices: device " + std::to_string(v) + " does not exist (" +
                              std::to_string(available) + " present)");
  return out;
}

}  // namespace gridfuzz
