#pragma once
// The NVIDIA driver's own version (580.159.04), beside the CUDA version cuDriverGetVersion gives
// (driver_version(), "13.0"): two drivers of one CUDA version can differ in what they accept and
// how they fault, so a row says which one ran it.
#include <string>
#include <string_view>

namespace gridfuzz::device {

// The kernel module's version, from /proc/driver/nvidia/version; where that file is absent (a
// container that does not mount it), NVML's nvmlSystemGetDriverVersion (libnvidia-ml.so.1, opened
// at run time: gridfuzz does not link NVML). "" when neither says. Read once per process.
std::string driver_release();

// The version in /proc/driver/nvidia/version's text: the first word made of digits and dots with
// at least one dot after "Kernel Module" ("NVRM version: NVIDIA UNIX x86_64 Kernel Module
// 580.159.04  Thu ..." -> "580.159.04"); "" when there is none. Pure (the CPU tests check it).
std::string driver_release_of_proc_text(std::string_view text);

}  // namespace gridfuzz::device
