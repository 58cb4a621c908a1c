#include "gridfuzz/engine/memory_admission.hpp"

namespace gridfuzz {

MemoryAdmission::Grant& MemoryAdmission::Grant::operator=(Grant&& o) noexcept {
  if (this != &o) {
    release();
    owner_ = o.owner_;
    bytes_ = o.bytes_;
    o.owner_ = nullptr;
  }
  return *this;
}

void MemoryAdmission::Grant::release() {
  if (owner_) owner_->give_back(bytes_);
  owner_ = nullptr;
}

std::uint64_t MemoryAdmission::queue() {
  std::lock_guard<std::mutex> lock(mu_);
  return next_ticket_++;
}

MemoryAdmission::Grant MemoryAdmission::admit(std::uint64_t ticket, std::uint64_t bytes, bool alone) {
  std::unique_lock<std::mutex> lock(mu_);
  const bool exclusive = alone || bytes > capacity_;
  changed_.wait(lock, [&] {
    if (ticket != head_ || alone_running_) return false;
    return exclusive ? running_ == 0 : in_use_ + bytes <= capacity_;
  });
  in_use_ += bytes;
  ++running_;
  alone_running_ = exclusive;
  advance_past(ticket);
  return Grant(this, bytes);
}

void MemoryAdmission::skip(std::uint64_t ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [&] { return ticket == head_; });  // places are given up in turn, like grants
  advance_past(ticket);
}

void MemoryAdmission::advance_past(std::uint64_t ticket) {
  head_ = ticket + 1;
  changed_.notify_all();
}

void MemoryAdmission::give_back(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  in_use_ -= bytes;
  --running_;
  if (running_ == 0) alone_running_ = false;
  changed_.notify_all();
}

std::uint64_t MemoryAdmission::in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_use_;
}

int MemoryAdmission::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}

}  // namespace gridfuzz
