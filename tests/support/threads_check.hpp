#pragma once
// A case's cpu_reference with GRIDFUZZ_CPU_THREADS=1 and with more threads (the variable restored
// after), for the adapters whose thread count comes from the environment alone: the same sample
// set bit for bit, and every buffer read on the calling thread.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gridfuzz/kernel.hpp"
#include "host_buffers.hpp"
#include "same_samples.hpp"
#include "scoped_env.hpp"

namespace gridfuzz::testing {

inline void expect_same_samples_at_any_thread_count(const BoundCase& c, const HostBuffers& bufs, std::uint64_t seed,
                                                    std::size_t count, const char* threads = "4") {
  std::vector<ReferenceSample> serial, parallel;
  {
    const ScopedEnv one("GRIDFUZZ_CPU_THREADS", "1");
    serial = c.cpu_reference(bufs, seed, count);
  }
  {
    const ScopedEnv more("GRIDFUZZ_CPU_THREADS", threads);
    parallel = c.cpu_reference(bufs, seed, count);
  }
  EXPECT_FALSE(serial.empty());
  EXPECT_TRUE(same_samples(serial, parallel)) << threads << " threads";
  EXPECT_EQ(bufs.reader_threads(), std::set<std::thread::id>{std::this_thread::get_id()});
}

}  // namespace gridfuzz::testing
