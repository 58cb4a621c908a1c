#pragma once
// parallel_for: body(i) for every i in [0, n) on several host threads, for the float64 CPU
// reference of BoundCase::cpu_reference, whose samples are independent and whose time is mostly
// host arithmetic over long rows. Header-only (std::thread: gridfuzz::api links the threads
// library), so a plugin uses it as it is.
//
// The pattern (docs/PLUGINS.md): draw the sample indices and do every BufferSet::read serially,
// on the calling thread, so the sample set never depends on the thread count; then compute each
// sample in parallel_for, writing its result into its own slot of a vector sized beforehand. Reads stay on
// the calling thread because BufferSet::read goes through the CUDA driver API with the calling
// thread's current context, and these worker threads have none. parallel_for_with_workers also
// tells each body which thread runs it, for scratch reused from sample to sample.
//
// Thread count (cpu_reference_threads): GRIDFUZZ_CPU_THREADS when it is a positive integer, else
// std::thread::hardware_concurrency() capped at 16; never more than n. A value that is not a
// positive integer is ignored (the default is used), with one note on stderr per process.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace gridfuzz {

// The default thread count when GRIDFUZZ_CPU_THREADS is unset: more threads than this gain little
// on one sample set of a few hundred rows, and a sweep may run several workers on one host.
inline constexpr std::size_t kMaxDefaultCpuThreads = 16;

// GRIDFUZZ_CPU_THREADS if set to a positive integer, else hardware_concurrency() capped at 16
// (at least 1). Read on every call (it is cheap), so a test may set it.
inline std::size_t cpu_reference_threads() {
  if (const char* env = std::getenv("GRIDFUZZ_CPU_THREADS"); env != nullptr && *env != '\0') {  // empty: unset
    std::size_t value = 0;
    const char* end = env + std::strlen(env);
    const auto [at, ec] = std::from_chars(env, end, value);
    if (ec == std::errc{} && at == end && value > 0) return value;
    // A bad value must not stop a sweep: the default serves, and the note says so once.
    static std::once_flag noted;
    std::call_once(noted, [env] {
      std::fprintf(stderr, "gridfuzz: GRIDFUZZ_CPU_THREADS='%s' is not a positive integer; ignored\n", env);
    });
  }
  const std::size_t hw = std::thread::hardware_concurrency();  // 0 when unknown
  return std::clamp<std::size_t>(hw, 1, kMaxDefaultCpuThreads);
}

// The threads parallel_for_with_workers(n, threads, ...) runs on, each a worker number below this:
// min(threads, n), at least 1.
inline std::size_t parallel_workers(std::size_t n, std::size_t threads) {
  return std::max<std::size_t>(1, std::min(threads, n));
}

// body(i, worker) for every i in [0, n), on parallel_workers(n, threads) threads; worker names the
// thread that runs body (0: the calling thread), so a body can reuse scratch of its own per worker
// (e.g. std::vector<Scratch> scratch(parallel_workers(n, threads)), indexed by worker) instead of
// allocating per index. With n < 2 or threads <= 1 it is a plain loop on the calling thread.
//
// Indices are handed out in increasing order from one counter, so every thread stays busy when
// samples differ in cost. An exception in body stops the handing out of further indices; the
// indices already handed out finish, every thread is joined, and then the exception of the
// lowest failing index is rethrown on the calling thread: the same exception a serial loop would
// have thrown (every index below the first failure was handed out before it). Never
// std::terminate. If the system refuses a thread, the threads already started (and the calling
// thread) do the work.
inline void parallel_for_with_workers(std::size_t n, std::size_t threads,
                                      const std::function<void(std::size_t, std::size_t)>& body) {
  threads = parallel_workers(n, threads);
  if (n < 2 || threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) body(i, 0);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  std::size_t error_index = n;
  auto work = [&](std::size_t worker) {
    while (!failed.load(std::memory_order_relaxed)) {
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= n) return;
      try {
        body(i, worker);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (i < error_index) {
          error_index = i;
          error = std::current_exception();
        }
        failed.store(true, std::memory_order_relaxed);
      }
    }
  };
  {
    // jthreads join when the vector goes, also when this scope is left by an exception.
    std::vector<std::jthread> pool;
    pool.reserve(threads - 1);
    for (std::size_t t = 1; t < threads; ++t) {
      try {
        pool.emplace_back(work, t);
      } catch (const std::system_error&) {
        break;  // no more threads to be had: the ones running finish the work
      }
    }
    work(0);
  }  // joined: every body has returned, and its writes are visible here
  if (error) std::rethrow_exception(error);
}

// body(i) for every i in [0, n), on min(threads, n) threads (the calling thread is one of them),
// as parallel_for_with_workers does it.
inline void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& body) {
  parallel_for_with_workers(n, threads, [&body](std::size_t i, std::size_t) { body(i); });
}

// The same with cpu_reference_threads() threads.
inline void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) {
  parallel_for(n, cpu_reference_threads(), body);
}

}  // namespace gridfuzz
