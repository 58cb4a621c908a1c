#pragma once
// A BufferSet in host memory, for running a case's cpu_reference on the CPU (tests, CPU benches):
// buffer i is a byte vector of specs[i].bytes(), read and written with memcpy; ptr() is 0, as
// there is no device memory (nothing here may launch). Reads outside a buffer throw
// std::out_of_range. It notes the threads that read, so a test can check that the reads stay on
// the calling thread (on a device, BufferSet::read needs the calling thread's CUDA context).
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "gridfuzz/kernel.hpp"

namespace gridfuzz::testing {

class HostBuffers final : public BufferSet {
 public:
  explicit HostBuffers(std::vector<BufferSpec> specs) : specs_(std::move(specs)) {
    for (const BufferSpec& s : specs_) data_.emplace_back(s.bytes());
  }
  using BufferSet::ptr;
  CUdeviceptr ptr(std::size_t) const override { return 0; }
  std::uint64_t bytes(std::size_t i) const override { return data_.at(i).size(); }
  void read(std::size_t i, std::uint64_t offset, void* host, std::uint64_t n) const override {
    check(i, offset, n, "read");
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      readers_.insert(std::this_thread::get_id());
    }
    std::memcpy(host, data_[i].data() + offset, n);
  }
  void write(std::size_t i, std::uint64_t offset, const void* host, std::uint64_t n) const override {
    check(i, offset, n, "write");
    std::memcpy(data_[i].data() + offset, host, n);
  }
  std::size_t index_of(std::string_view name) const override { return buffer_index(specs_, name); }

  // The bytes of the buffer called `name`, to fill, and its spec.
  std::vector<std::uint8_t>& raw(std::string_view name) { return data_.at(index_of(name)); }
  const BufferSpec& spec(std::string_view name) const { return specs_.at(index_of(name)); }
  bool has(std::string_view name) const {
    for (const BufferSpec& s : specs_)
      if (s.name == name) return true;
    return false;
  }
  // Every thread that has read so far.
  std::set<std::thread::id> reader_threads() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return readers_;
  }

 private:
  void check(std::size_t i, std::uint64_t offset, std::uint64_t n, const char* what) const {
    const std::uint64_t size = data_.at(i).size();
    if (offset > size || n > size - offset)
      throw std::out_of_range(std::string("HostBuffers: ") + what + " of " + std::to_string(n) + " bytes at " +
                              std::to_string(offset) + " past buffer " + specs_.at(i).name + " (" +
                              std::to_string(size) + " bytes)");
  }

  std::vector<BufferSpec> specs_;
  mutable std::vector<std::vector<std::uint8_t>> data_;  // write() is const, as in BufferSet
  mutable std::mutex mutex_;
  mutable std::set<std::thread::id> readers_;
};

}  // namespace gridfuzz::testing
