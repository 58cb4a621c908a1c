#include "gridfuzz/device/launch_recorder.hpp"

#include <cupti_callbacks.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>

#include "gridfuzz/device/cupti_launch_callbacks.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::device {
namespace {

struct Subscription {
  std::string failure;  // why it cannot be used; empty when subscribed
};

std::mutex g_mutex;                        // guards g_folder and the live flag
LaunchEventFolder* g_folder = nullptr;     // the live recorder's, or null
std::atomic<bool> g_live{false};

const char* runtime_error_name(int e) { return cudaGetErrorName(static_cast<cudaError_t>(e)); }

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (!g_live.load(std::memory_order_acquire)) return;
  // The driver is loaded: CUPTI calls back from inside one of its launch functions.
  const DriverApi& d = driver();
  const LaunchCallbackCalls calls{d.cuFuncGetAttribute, d.cuGetErrorName, nullptr, runtime_error_name};
  const auto cb = read_launch_callback(domain, cbid, *static_cast<const CUpti_CallbackData*>(data), calls);
  if (!cb) return;
  const std::lock_guard lock(g_mutex);
  if (g_folder) g_folder->on_event(cb->event);
}

// Subscribes once per process (CUPTI allows one subscriber).
const Subscription& cupti() {
  static const Subscription subscription{subscribe_to_launches(on_callback, nullptr)};
  return subscription;
}

LaunchEventFolder g_live_folder;

}  // namespace

std::optional<std::string> LaunchRecorder::unavailable_reason() {
  const Subscription& a = cupti();
  if (a.failure.empty()) return std::nullopt;
  return a.failure;
}

LaunchRecorder::LaunchRecorder() {
  if (auto why = unavailable_reason()) throw LaunchRecorderUnavailable("launch recorder: " + *why);
  const std::lock_guard lock(g_mutex);
  if (g_folder) throw LaunchRecorderUnavailable("launch recorder: another recorder is live in this process");
  g_live_folder.take();
  g_folder = &g_live_folder;
  g_live.store(true, std::memory_order_release);
}

LaunchRecorder::~LaunchRecorder() {
  g_live.store(false, std::memory_order_release);
  const std::lock_guard lock(g_mutex);
  g_folder = nullptr;
}

std::vector<LaunchRecord> LaunchRecorder::take() {
  std::vector<LaunchRecord> records;
  {
    const std::lock_guard lock(g_mutex);
    records = g_live_folder.take();
  }
  for (LaunchRecord& r : records) r.spec.name = kernel_base_name(r.spec.name);
  return records;
}

std::string LaunchRecorder::describe_live() {
  const std::lock_guard lock(g_mutex);
  if (!g_folder) return "";
  std::string out;
  for (LaunchRecord r : g_folder->records()) {
    r.spec.name = kernel_base_name(r.spec.name);
    out += (out.empty() ? "" : "; ") + r.describe();
  }
  return out.empty() ? "no launch recorded before it" : "recorded before it: " + out;
}

void watch_launches(Launcher& launcher, const std::function<void()>& call) {
  LaunchRecorder recorder;
  try {
    call();
  } catch (...) {
    for (LaunchRecord& r : recorder.take()) launcher.add_watched(std::move(r));
    throw;
  }
  for (LaunchRecord& r : recorder.take()) launcher.add_watched(std::move(r));
}

}  // namespace gridfuzz::device
