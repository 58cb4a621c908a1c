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

void* advance_scalar(void* base, ScalarKind k, std::int64_t elements) {
  return advance(static_cast<std::uint8_t*>(base), elements * static_cast<std::int64_t>(scalar_bytes(k)));
}

void issue_quantize(const std::vector<QuantizeLaunch>& launches, ScalarKind k, void* x, int* q8,
                    device::Launcher& launcher, CUstream stream, bool checked) {
  static const device::Function f32 =
      device::Function::from_symbol(quantize_q8_1_kernel(ScalarKind::f32), "vllm quantize_q8_1<float>");
  static const device::Function f16 =
      device::Function::from_symbol(quantize_q8_1_kernel(ScalarKind::f16), "vllm quantize_q8_1<half>");
  static const device::Function bf16 =
      device::Function::from_symbol(quantize_q8_1_kernel(ScalarKind::bf16), "vllm quantize_q8_1<bfloat16>");
  const device::Function& fn = k == ScalarKind::f32 ? f32 : k == ScalarKind::f16 ? f16 : bf16;
  for (const QuantizeLaunch& l : launches) {
    const void* xi = advance_scalar(x, k, l.x_offset);
    void* vy = advance(q8, l.q8_offset);
    int kx = l.kx, kx_padded = l.kx_padded;
    void* args[] = {&xi, &vy, &kx, &kx_padded};
    launch_upstream(launcher, fn, l.spec, args, stream, checked);
  }
}

}  // namespace gridfuzz::vllm
