#include "gridfuzz/engine/worker_pool.hpp"

#include <atomic>
#include <charconv>
#include <exception>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace gridfuzz {

WorkerPool::WorkerPool(std::vector<int> devices, std::function<std::vector<std::string>(int)> make_argv,
                       double timeout_s)
    : devices_(std::move(devices)) {
  if (devices_.empty()) throw std::invalid_argument("WorkerPool: no device");
  for (int d : devices_) workers_.push_back(std::make_unique<WorkerClient>(make_argv(d), timeout_s));
}

int WorkerPool::restarts() const {
  int n = 0;
  for (const auto& w : workers_) n += w->restarts();
  return n;
}

void WorkerPool::run(const std::vector<std::string>& replays, const std::function<void(const Result&)>& on_result,
                     const std::function<bool()>& should_stop) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex report;
  std::vector<std::thread> threads;
  for (std::size_t slot = 0; slot < workers_.size(); ++slot) {
    threads.emplace_back([&, slot] {
      try {
        for (std::size_t i = next++; i < replays.size(); i = next++) {
          if (failed || (should_stop && should_stop())) break;
          Result r;
          r.index = i;
          r.device = devices_[slot];
          r.reply = workers_[slot]->run(replays[i]);
          // A worker that died without a word may have been killed from outside: give the case one
          // more chance on a fresh worker before recording the crash. Timeouts are not retried.
          if (r.reply.status == WorkerReply::Status::crashed) {
            r.reply = workers_[slot]->run(replays[i]);
            r.attempts = 2;
          }
          std::lock_guard<std::mutex> lock(report);
          if (failed) break;
          on_result(r);
        }
      } catch (...) {
        // An error here (a row that cannot be written, a worker that cannot start) ends the run
        // for every device and reaches the caller; thrown out of a thread it would end the process.
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
