// libgridfuzz_watch.so: the CUPTI injection library of `gridfuzz watch`. The CUDA driver loads it
// into the watched program when CUDA_INJECTION64_PATH names it and calls InitializeInjection()
// during cuInit. It subscribes to CUPTI's callbacks on the launch functions (through the
// harness's own reader, gridfuzz/device/cupti_launch_callbacks.hpp) and appends one line per
// launch record to the file named by GRIDFUZZ_WATCH_LOG (gridfuzz/watch/launch_log.hpp), with
// write(2) as each launch returns, so a crash loses nothing that was recorded.
//
// Bounded: identical launches share a line, written again only when their count reaches a power
// of two and once more at exit (a crash can undercount a repeated launch, never lose it); after
// kMaxDistinct different launches, new ones are counted, not recorded. It never fails the
// program: whatever goes wrong is written to the log as a note and the program runs on.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_callbacks.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "gridfuzz/device/cupti_launch_callbacks.hpp"
#include "gridfuzz/watch/launch_log.hpp"

namespace {

using gridfuzz::Dim3;
using gridfuzz::device::LaunchCallbackCalls;
using gridfuzz::device::LaunchEvent;
using gridfuzz::device::LaunchEventFolder;
using gridfuzz::device::LaunchRecord;
using gridfuzz::watch::LaunchApi;
using gridfuzz::watch::WatchedLaunch;

constexpr std::size_t kMaxDistinct = 100000;

bool is_power_of_two(std::uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

// The names of the runtime's launch errors, for programs whose runtime is static (nvcc's default)
// and so exports no cudaGetErrorName the library could find.
const char* runtime_error_name(int code) {
  using Fn = const char* (*)(cudaError_t);
  static const Fn from_program = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "cudaGetErrorName"));
  if (from_program) return from_program(static_cast<cudaError_t>(code));
  switch (code) {
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    default: return nullptr;  // the folder writes "runtime error <n>"
  }
}

struct Distinct {
  WatchedLaunch launch;
  std::uint64_t written = 0;  // the count of its last line
};

class Recorder {
 public:
  // Opens the log (gridfuzz created it) and subscribes. Returns false when there is no log to write.
  bool start() {
    const char* path = std::getenv(gridfuzz::watch::kLogPathVariable);
    if (!path || !*path) return false;
    pid_ = getpid();
    fd_ = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) {
      const std::string why = std::string("gridfuzz watch: cannot open ") + path + ": " + std::strerror(errno) + "\n";
      (void)!::write(2, why.data(), why.size());
      return false;
    }
    const std::lock_guard lock(mutex_);
    write_line(gridfuzz::watch::format_header_line(pid_));
    if (void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      calls_.func_get_attribute = reinterpret_cast<decltype(calls_.func_get_attribute)>(dlsym(cuda, "cuFuncGetAttribute"));
      calls_.get_error_name = reinterpret_cast<decltype(calls_.get_error_name)>(dlsym(cuda, "cuGetErrorName"));
      calls_.func_get_name = reinterpret_cast<decltype(calls_.func_get_name)>(dlsym(cuda, "cuFuncGetName"));
      calls_.kernel_get_function =
          reinterpret_cast<decltype(calls_.kernel_get_function)>(dlsym(cuda, "cuKernelGetFunction"));
    } else {
      write_line(gridfuzz::watch::format_note_line(pid_, "libcuda.so.1 not found in the process: no attributes, no names"));
    }
    calls_.runtime_error_name = runtime_error_name;
    return true;
  }

  const LaunchCallbackCalls& calls() const { return calls_; }
  void note(const std::string& text) {
    const std::lock_guard lock(mutex_);
    write_line(gridfuzz::watch::format_note_line(pid_, text));
  }

  void record(WatchedLaunch l) {
    l.pid = pid_;
    l.count = 1;
    const std::lock_guard lock(mutex_);
    if (closed_) return;
    std::string key = l.key();
    auto it = launches_.find(key);
    if (it == launches_.end()) {
      if (launches_.size() >= kMaxDistinct) {
        if (dropped_++ == 0)
          write_line(gridfuzz::watch::format_note_line(
              pid_, "more than " + std::to_string(kMaxDistinct) + " different launches: further ones counted, not recorded"));
        return;
      }
      it = launches_.emplace(std::move(key), Distinct{l, 0}).first;
    } else {
      ++it->second.launch.count;
    }
    Distinct& d = it->second;
    if (is_power_of_two(d.launch.count)) {
      write_line(gridfuzz::watch::format_launch_line(d.launch));
      d.written = d.launch.count;
    }
  }

  // At exit: the counts not yet written, and what was dropped. Nothing is recorded after it.
  void finish() {
    const std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    for (auto& [key, d] : launches_)
      if (d.written != d.launch.count) write_line(gridfuzz::watch::format_launch_line(d.launch));
    if (dropped_ > 0) write_line(gridfuzz::watch::format_dropped_line(pid_, dropped_));
  }

 private:
  // One write(2) per line (O_APPEND: lines of several processes do not interleave); a short
  // write is finished, an error drops the line.
  void write_line(const std::string& line) {
    std::size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  }

  std::mutex mutex_;
  int fd_ = -1;
  std::int64_t pid_ = 0;
  bool closed_ = false;
  std::unordered_map<std::string, Distinct> launches_;
  std::uint64_t dropped_ = 0;
  LaunchCallbackCalls calls_;
};

// Never destroyed: the driver may still call back from the program's other threads while it
// exits, after static destructors have run.
Recorder& recorder() {
  static Recorder* const r = new Recorder;
  return *r;
}

// The events of one thread fold on that thread (a runtime launch and the driver launch inside it
// happen on one thread; the program's threads interleave).
thread_local LaunchEventFolder t_folder;

WatchedLaunch watched_of(const LaunchRecord& r, const gridfuzz::device::LaunchCallback& cb, const LaunchCallbackCalls& calls) {
  WatchedLaunch l;
  l.symbol = r.spec.name;
  l.grid = r.spec.grid;
  l.block = r.spec.block;
  l.dynamic_smem_bytes = r.spec.dynamic_smem_bytes;
  l.static_smem_bytes = r.spec.func.static_smem_bytes;
  l.regs = r.spec.func.num_regs;
  l.result = static_cast<int>(r.code);
  l.error = r.error;
  if (cb.event.api == LaunchEvent::Api::driver) {
    l.api = LaunchApi::driver;
    l.max_dynamic_smem_bytes = static_cast<std::uint64_t>(gridfuzz::device::function_attribute(
        calls, cb.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
  } else {
    // Refused by the runtime itself; the folder writes a 0,0,0 grid and block when the runtime's
    // entry point does not describe the geometry.
    l.api = LaunchApi::runtime;
    l.geometry_known = !(r.spec.grid == Dim3{0, 0, 0} && r.spec.block == Dim3{0, 0, 0});
  }
  return l;
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  Recorder& rec = recorder();
  const auto cb = gridfuzz::device::read_launch_callback(domain, cbid, *static_cast<const CUpti_CallbackData*>(data),
                                                         rec.calls());
  if (!cb) return;
  try {
    t_folder.on_event(cb->event);
    for (const LaunchRecord& r : t_folder.take()) rec.record(watched_of(r, *cb, rec.calls()));
  } catch (...) {
    // Out of memory inside the program's launch: that launch goes unrecorded, the program runs on.
  }
}

void finish_at_exit() { recorder().finish(); }

}  // namespace

// The driver's entry point into an injection library (CUPTI documentation, "CUDA injection");
// returns 1: the program runs on whatever happens here.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  static std::once_flag once;
  std::call_once(once, [] {
    Recorder& rec = recorder();
    if (!rec.start()) return;
    if (const std::string why = gridfuzz::device::subscribe_to_launches(on_callback, nullptr); !why.empty()) {
      rec.note("launches not recorded: " + why);
      return;
    }
    std::atexit(finish_at_exit);
  });
  return 1;
}
