#include "gridfuzz/device/kernel_activity.hpp"

#include <cupti_activity.h>

#include <algorithm>
#include <memory>
#include <mutex>

#include "cupti_library.hpp"

namespace gridfuzz::device {

double busy_ms(std::vector<KernelInterval> kernels) {
  std::sort(kernels.begin(), kernels.end(),
            [](const KernelInterval& a, const KernelInterval& b) { return a.start_ns < b.start_ns; });
  std::uint64_t busy_ns = 0;
  std::uint64_t open_start = 0, open_end = 0;  // the union's current interval
  bool open = false;
  for (const KernelInterval& k : kernels) {
    if (k.end_ns <= k.start_ns) continue;  // no duration (CUPTI writes 0 when it has no timestamp)
    if (open && k.start_ns <= open_end) {
      open_end = std::max(open_end, k.end_ns);
      continue;
    }
    if (open) busy_ns += open_end - open_start;
    open_start = k.start_ns;
    open_end = k.end_ns;
    open = true;
  }
  if (open) busy_ns += open_end - open_start;
  return static_cast<double>(busy_ns) / 1e6;
}

namespace {

struct ActivityApi {
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) dropped_records = nullptr;
  std::string failure;  // why it cannot be used; empty when the buffer callbacks are registered
};

// Filled by CUPTI's buffer-completed callback (CUPTI's own thread, or the caller's in a flush).
std::mutex g_mutex;
std::vector<KernelInterval> g_completed;
std::size_t g_dropped = 0;
bool g_live = false;

constexpr std::size_t kBufferBytes = 1 << 20;

void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  // Handed to CUPTI and taken back in on_buffer_completed (operator new[] aligns to 16 bytes;
  // CUPTI asks for 8).
  *buffer = std::make_unique<std::uint8_t[]>(kBufferBytes).release();
  *size = kBufferBytes;
  *max_records = 0;  // as many as fit
}

const ActivityApi& activity_api();

void CUPTIAPI on_buffer_completed(CUcontext context, std::uint32_t stream_id, std::uint8_t* buffer, std::size_t,
                                  std::size_t valid_bytes) {
  const std::unique_ptr<std::uint8_t[]> owned(buffer);
  const ActivityApi& api = activity_api();
  const std::lock_guard lock(g_mutex);
  CUpti_Activity* record = nullptr;
  while (api.next_record(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
    // start/end/name sit at the same place in every version of the kernel record.
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    if (g_live) g_completed.push_back({k->name ? k->name : "", k->start, k->end});
  }
  std::size_t dropped = 0;
  if (api.dropped_records && api.dropped_records(context, stream_id, &dropped) == CUPTI_SUCCESS) g_dropped += dropped;
}

const ActivityApi& activity_api() {
  static const ActivityApi api = [] {
    ActivityApi a;
    const CuptiLibrary& lib = CuptiLibrary::get();
    if (!lib.loaded()) {
      a.failure = lib.failure();
      return a;
    }
    a.enable = lib.symbol<decltype(&cuptiActivityEnable)>("cuptiActivityEnable");
    a.disable = lib.symbol<decltype(&cuptiActivityDisable)>("cuptiActivityDisable");
    a.flush_all = lib.symbol<decltype(&cuptiActivityFlushAll)>("cuptiActivityFlushAll");
    a.next_record = lib.symbol<decltype(&cuptiActivityGetNextRecord)>("cuptiActivityGetNextRecord");
    a.dropped_records = lib.symbol<decltype(&cuptiActivityGetNumDroppedRecords)>("cuptiActivityGetNumDroppedRecords");
    const auto register_callbacks =
        lib.symbol<decltype(&cuptiActivityRegisterCallbacks)>("cuptiActivityRegisterCallbacks");
    if (!a.enable || !a.disable || !a.flush_all || !a.next_record || !register_callbacks) {
      a.failure = "libcupti lacks the activity API";
      return a;
    }
    if (const CUptiResult r = register_callbacks(on_buffer_requested, on_buffer_completed); r != CUPTI_SUCCESS)
      a.failure = "cuptiActivityRegisterCallbacks failed: " + lib.error_string(r);
    return a;
  }();
  return api;
}

}  // namespace

std::optional<std::string> KernelActivity::unavailable_reason() {
  const ActivityApi& a = activity_api();
  if (a.failure.empty()) return std::nullopt;
  return a.failure;
}

KernelActivity::KernelActivity() {
  if (auto why = unavailable_reason()) throw KernelActivityUnavailable("kernel time: " + *why);
  const ActivityApi& api = activity_api();
  {
    const std::lock_guard lock(g_mutex);
    if (g_live) throw KernelActivityUnavailable("kernel time: another KernelActivity is live in this process");
    g_completed.clear();
    g_dropped = 0;
    g_live = true;
  }
  if (const CUptiResult r = api.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); r != CUPTI_SUCCESS) {
    const std::lock_guard lock(g_mutex);
    g_live = false;
    throw KernelActivityUnavailable("kernel time: cuptiActivityEnable(CONCURRENT_KERNEL) failed: " +
                                    CuptiLibrary::get().error_string(r));
  }
}

KernelActivity::~KernelActivity() {
  // Results unchecked: a destructor cannot report them, and a failed disable or flush leaves at
  // worst records that arrive later, which on_buffer_completed drops once g_live is false.
  const ActivityApi& api = activity_api();
  api.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);  // hand back the buffers; records are dropped below
  const std::lock_guard lock(g_mutex);
  g_live = false;
  g_completed.clear();
}

std::vector<KernelInterval> KernelActivity::take() {
  const ActivityApi& api = activity_api();
  if (const CUptiResult r = api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); r != CUPTI_SUCCESS)
    throw KernelActivityUnavailable("kernel time: cuptiActivityFlushAll failed: " + CuptiLibrary::get().error_string(r));
  const std::lock_guard lock(g_mutex);
  if (g_dropped)
    throw KernelActivityUnavailable("kernel time: CUPTI dropped " + std::to_string(g_dropped) + " activity records");
  std::vector<KernelInterval> out;
  out.swap(g_completed);
  return out;
}

}  // namespace gridfuzz::device
