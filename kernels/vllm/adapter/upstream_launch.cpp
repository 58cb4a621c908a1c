#include "upstream_launch.hpp"

#include "../cuda/upstream_kernels.hpp"

namespace gridfuzz::vllm {

void launch_upstream(device::Launcher& launcher, const device::Function& fn, const LaunchSpec& spec, void** args,
                     CUstream stream, bool checked) {
  if (checked)
    launcher.launch_checked(fn, spec, args, stream);
  else
    launcher.launch(fn, spec, args, stream);
}

void issue_quantize(const std::vector<QuantizeLaunch>& launches, float* x, int* q8, device::Launcher& launcher,
                    CUstream stream, bool checked) {
  static const device::Function fn =
      device::Function::from_symbol(quantize_q8_1_kernel(ScalarKind::f32), "vllm quantize_q8_1<float>");
  for (const QuantizeLaunch& l : launches) {
    const float* xi = advance(x, l.x_offset);
    void* vy = advance(q8, l.q8_offset);
    int kx = l.kx, kx_padded = l.kx_padded;
    void* args[] = {&xi, &vy, &kx, &kx_padded};
    launch_upstream(launcher, fn, l.spec, args, stream, checked);
  }
}

}  // namespace gridfuzz::vllm
