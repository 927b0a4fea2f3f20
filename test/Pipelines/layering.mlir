// The layers include only the layers below them (utils/check-layers.py):
// the CPU backend and emulator (lib/Host) and the GPU lowering (lib/GPU)
// side by side over the kernel form, the dialect and the chip facts; the
// runtime libraries over the chip facts' plain headers only. The emulator
// included the distribution's header for one constant (and linked the GPU
// library) before.
// RUN: python3 %mgpu_src_root/utils/check-layers.py %mgpu_src_root | FileCheck %s
// CHECK: check-layers: every include goes down the layers
