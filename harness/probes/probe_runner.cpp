#include "gridfuzz/probes/probe_runner.hpp"

#include <sstream>
#include <vector>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/core/verdict.hpp"
#include "gridfuzz/predictor.hpp"
#include "probe_kernels.cuh"

namespace gridfuzz::device {

bool ProbeResult::agree() const {
  return outcome_agrees(predicted, IndexWrap::safe(), observed) &&
         (observed.kind != Observed::Kind::accept || ran_to_completion);
}

std::vector<ProbeKernelInfo> device_probe_kernels() {
  std::vector<ProbeKernelInfo> out;
  for (const auto& s : probe_symbols()) {
    const Function f = Function::from_symbol(s.symbol, s.name);
    out.push_back({s.kind, s.name, f.attributes()});
  }
  return out;
}

std::vector<ProbeResult> run_limit_probes(int ordinal) {
  const DeviceLimits limits = query_limits(ordinal);
  PrimaryContext ctx(ordinal);
  Stream stream;
  DeviceBuffer data(256 * sizeof(float));
  DeviceBuffer marker(sizeof(unsigned));
  std::vector<float> host_data(256, 0.5f);
  data.upload(host_data.data(), host_data.size() * sizeof(float));

  std::vector<Function> functions;
  for (const auto& s : probe_symbols()) functions.push_back(Function::from_symbol(s.symbol, s.name));
  std::vector<ProbeKernelInfo> kernels;
  for (std::size_t i = 0; i < functions.size(); ++i)
    kernels.push_back({probe_symbols()[i].kind, probe_symbols()[i].name, functions[i].attributes()});

  Launcher launcher;
  std::vector<ProbeResult> results;
  for (const LimitProbe& probe : limit_probes(limits, kernels)) {
    const Function* fn = nullptr;
    for (const auto& f : functions)
      if (f.name() == probe.kernel.name) fn = &f;
    ProbeResult r;
    r.probe = probe;
    r.predicted = predicted_outcome(predict_launch(probe.launch, limits));
    marker.fill_words(0);
    ctx.synchronize();  // the memset runs on the legacy stream; order it before the launch
    float* data_ptr = data.as<float>();
    unsigned* marker_ptr = marker.as<unsigned>();
    unsigned smem = static_cast<unsigned>(probe.launch.dynamic_smem_bytes);
    void* args[] = {&data_ptr, &marker_ptr, &smem};
    const LaunchRecord& rec = launcher.launch(*fn, probe.launch, args, stream.get());
    r.observed = rec.ok() ? Observed{Observed::Kind::accept, ""} : Observed{Observed::Kind::refuse, rec.error};
    stream.synchronize();  // an accepted probe must also finish cleanly
    if (rec.ok()) {
      unsigned done = 0;
      marker.download(&done, sizeof(done));
      r.ran_to_completion = done == 1u;
    }
    results.push_back(r);
  }
  return results;
}

std::string probes_markdown(const std::vector<ProbeResult>& results) {
  std::ostringstream md;
  md << "| boundary | kernel (regs, static smem) | grid | block | dynamic smem | opt-in | predicted | driver | agree |\n";
  md << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : results) {
    const LaunchSpec& l = r.probe.launch;
    md << "| " << r.probe.boundary << " | " << r.probe.kernel.name << " (" << l.func.num_regs << ", "
       << l.func.static_smem_bytes << ") | " << to_string(l.grid) << " | " << to_string(l.block) << " | "
       << l.dynamic_smem_bytes << " | " << (l.smem_optin ? "yes" : "no") << " | " << r.predicted.to_string() << " | "
       << r.observed.to_string()
       << (r.observed.kind == Observed::Kind::accept && !r.ran_to_completion ? " (did not complete)" : "") << " | "
       << (r.agree() ? "yes" : "NO") << " |\n";
  }
  return md.str();
}

}  // namespace gridfuzz::device
