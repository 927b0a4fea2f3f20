// The static HBM estimate of the memory-bound suite (bench/hbm-estimate.py):
// every kernel reads its blocks straight from global memory (no TMA, no
// shared-memory round trip for the data), keeps enough loads in flight for
// at least 90% of H200's HBM bandwidth by Little's law, and spills nothing.
// The estimate is static (PTX and ptxas -v), not a timing.
//
// REQUIRES: ptxas
// RUN: %python %mgpu_src_root/bench/hbm-estimate.py --build %mgpu_obj_root --ptxas %ptxas --min 90 | FileCheck %s

// CHECK: H200: 132 SMs, 4.8 TB/s, 800 ns: 28.4 KiB in flight per SM needed
// CHECK: | vector_add | direct | {{[0-9]+}} | 0 | {{[0-9]+}} | 256 | {{.*}} | 0 | 0 | 0 | {{(9[0-9]|100)}}% |
// CHECK: | rowsum | direct | {{[0-9]+}} | 0 | {{[0-9]+}} | 256 | {{.*}} | {{(9[0-9]|100)}}% |
// CHECK: | softmax | direct | {{[0-9]+}} | 0 | {{[0-9]+}} | 128 | {{.*}} | {{(9[0-9]|100)}}% |
// CHECK: | layernorm | direct | {{[0-9]+}} | 0 | {{[0-9]+}} | 128 | {{.*}} | {{(9[0-9]|100)}}% |
