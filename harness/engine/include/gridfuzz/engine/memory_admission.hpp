#pragma once
// Several workers share one GPU only while their cases' device memory fits together. A case is
// admitted once its bytes fit beside the cases running on that GPU, strictly in the order the
// cases were queued (so a large case is never overtaken for ever by small ones); a case larger
// than the whole capacity, or one asked to run alone, waits until nothing else runs. Host code
// only: the sizes come from the cases' buffer specs (runner.hpp, case_device_need).
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace gridfuzz {

class MemoryAdmission {
 public:
  explicit MemoryAdmission(std::uint64_t capacity_bytes) : capacity_(capacity_bytes) {}
  MemoryAdmission(const MemoryAdmission&) = delete;
  MemoryAdmission& operator=(const MemoryAdmission&) = delete;

  // Held while a case runs; gives its bytes back when destroyed.
  class Grant {
   public:
    Grant() = default;
    Grant(Grant&& o) noexcept : owner_(o.owner_), bytes_(o.bytes_) { o.owner_ = nullptr; }
    Grant& operator=(Grant&& o) noexcept;
    ~Grant() { release(); }
    void release();
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    friend class MemoryAdmission;
    Grant(MemoryAdmission* owner, std::uint64_t bytes) : owner_(owner), bytes_(bytes) {}
    MemoryAdmission* owner_ = nullptr;
    std::uint64_t bytes_ = 0;
  };

  // A place in line. Take places in the order the cases are taken (under the caller's lock that
  // hands out the cases), then wait for the grant with admit() or give the place up with skip().
  std::uint64_t queue();
  // Blocks until `ticket` is first in line and `bytes` fit beside the running cases (or nothing
  // runs, for a case over the capacity, or `alone`).
  Grant admit(std::uint64_t ticket, std::uint64_t bytes, bool alone = false);
  // The place is not used (the case was not started): the next in line moves up.
  void skip(std::uint64_t ticket);

  std::uint64_t capacity() const { return capacity_; }
  // What is granted now, and to how many cases (for tests and progress).
  std::uint64_t in_use() const;
  int running() const;

 private:
  void give_back(std::uint64_t bytes);
  void advance_past(std::uint64_t ticket);  // under mu_

  const std::uint64_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::uint64_t next_ticket_ = 0;  // handed out by queue()
  std::uint64_t head_ = 0;         // the ticket whose turn it is
  std::uint64_t in_use_ = 0;
  int running_ = 0;
  bool alone_running_ = false;     // a case admitted alone holds the GPU to itself
};

}  // namespace gridfuzz
