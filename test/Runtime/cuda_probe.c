/*===- cuda_probe.c - Is there a CUDA device to run tests on? -------------===//
//
// Exits 0 when the mgpu CUDA runtime finds a usable driver and device, and
// 1 otherwise, printing why to stderr. test/lit.cfg.py runs it once to decide
// whether to enable the `cuda-device` feature, so that tests which need a
// GPU run where there is one and are reported UNSUPPORTED elsewhere.
//
//===----------------------------------------------------------------------===*/

#include "mgpu/Runtime/CudaRuntime.h"

#include <stdio.h>

int main(void) {
  if (mgpuRuntimeHasDevice()) {
    printf("mgpu runtime: a CUDA device is present\n");
    return 0;
  }
  fprintf(stderr, "mgpu runtime: no CUDA device: %s\n",
          mgpuRuntimeNoDeviceReason());
  return 1;
}
