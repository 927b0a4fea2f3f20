// The layers include only the layers below them (utils/check-layers.py):
// the CPU backend and emulator (lib/Host) and the GPU lowering (lib/GPU)
// side by side over the kernel form, the dialect and the chip facts; the
// runtime libraries over the chip facts' plain headers only. The emulator
// included the distribution's header for one constant (and linked the GPU
// library) before.
// RUN: python3 %mgpu_src_root/utils/check-layers.py %mgpu_src_root | FileCheck %s
// CHECK: check-layers: every include goes down the layers
// CHECK-SAME: and the distribution includes no target dialect

// The distribution writes target-neutral ops: a distribution file that
// includes the NVVM dialect, or a GPU-layer file that includes the host
// backend, is refused.
// RUN: rm -rf %t && mkdir -p %t/lib/GPU
// RUN: echo '#include "mlir/Dialect/LLVMIR/NVVMDialect.h"' > %t/lib/GPU/DistributeSomething.cpp
// RUN: echo '#include "mgpu/Host/Passes.h.inc"' > %t/lib/GPU/SomethingToNVVM.cpp
// RUN: not python3 %mgpu_src_root/utils/check-layers.py %t | FileCheck %s --check-prefix=BAD
// BAD-DAG: check-layers: lib/GPU/DistributeSomething.cpp:1: the distribution includes a target dialect: #include "mlir/Dialect/LLVMIR/NVVMDialect.h"
// BAD-DAG: check-layers: lib/GPU/SomethingToNVVM.cpp:1: GPU includes Host: #include "mgpu/Host/Passes.h.inc"
