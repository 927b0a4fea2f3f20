// mgpu.wgmma on the tensor cores (--mgpu-lower-to-gpu="tensor-cores=1",
// sm_90a): a (K-major) and b (N-major, B[..., <row>]) are copied into the
// warpgroup scratch in the core-matrix
// layout, the proxy fence and barrier make the copies visible to the
// tensor cores, and each 64-row tile runs one m64nNk16 wgmma step per 16
// of K (mgpu.wgmma_shared, the lanes' op) between a fence and a commit +
// wait; --mgpu-primitives-to-nvvm makes them NVVM's wgmma ops (NVVM).
// Without the option, or on sm_80, wgmma runs on ordinary instructions.
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s --check-prefix=PORTABLE
// RUN: sed 's/sm_90a/sm_80/' %s | mgpu-opt --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s --check-prefix=PORTABLE

#s = #gpu.address_space<workgroup>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // CHECK-LABEL: func.func @bf16
  // CHECK: gpu.launch
  // CHECK: mgpu.commit_smem
  // CHECK: mgpu.warpgroup_barrier
  // CHECK: mgpu.wgmma_fence
  // CHECK-COUNT-4: mgpu.wgmma_shared %{{.*}}, %{{.*}}, %{{.*}} b_mn_major {a_type = bf16, b_type = bf16} : vector<16xf32>
  // CHECK: mgpu.wgmma_commit_group
  // CHECK: mgpu.wgmma_wait_group 0
  // Second 64-row tile.
  // CHECK: mgpu.wgmma_fence
  // CHECK-COUNT-4: mgpu.wgmma_shared
  // CHECK: mgpu.wgmma_wait_group 0
  // NVVM-LABEL: func.func @bf16
  // NVVM: nvvm.wgmma.fence.aligned
  // NVVM-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  // NVVM: nvvm.wgmma.commit.group.sync.aligned
  // NVVM: nvvm.wgmma.wait.group.sync.aligned 0
  // NVVM-NOT: mgpu.wgmma_
  // PORTABLE-LABEL: func.func @bf16
  // PORTABLE-NOT: mgpu.wgmma_
  func.func @bf16() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<128x64xbf16, #s>, memref<64x32xbf16, #s>, memref<128x32xf32, #s>] {
    ^bb0(%a: memref<128x64xbf16, #s>, %b: memref<64x32xbf16, #s>, %c: memref<128x32xf32, #s>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<128x32xf32, #s>, vector<128x32xf32>
      %r = mgpu.wgmma %acc, %a, %b : vector<128x32xf32>, memref<128x64xbf16, #s>, memref<64x32xbf16, #s>
      mgpu.wgmma_wait 0
      vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x32xf32>, memref<128x32xf32, #s>
    }
    return
  }

  // An accumulator carried by a loop (what --mgpu-promote-accumulators makes
  // of a revisited output block) stays in the fragment layout across the
  // steps: it is read from its block straight into fragments before the
  // loop and written back from them after it (8-byte accesses, no
  // exchange), and the loop body only copies a and b.
  // CHECK-LABEL: func.func @carried
  // The staged blocks are not zeroed first: shared memory starts undefined.
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  // CHECK: vector.load {{.*}} {alignment = 8 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<32xf32>) {
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: vector.extract_strided_slice %[[ACC]] {offsets = [0], sizes = [32], strides = [1]} : vector<32xf32> to vector<32xf32>
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK-COUNT-2: mgpu.wgmma_shared
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: scf.yield %{{.*}} : vector<32xf32>
  // CHECK-NEXT: }
  // CHECK-NOT: memref<4096xf32
  // CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  func.func @carried() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x32xbf16, #s>, memref<32x64xbf16, #s>, memref<64x64xf32, #s>] {
    ^bb0(%a: memref<64x32xbf16, #s>, %b: memref<32x64xbf16, #s>, %c: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %pad = arith.constant 0.0 : f32
      %init = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x64xf32, #s>, vector<64x64xf32>
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<64x64xf32>) {
        %r = mgpu.wgmma %acc, %a, %b : vector<64x64xf32>, memref<64x32xbf16, #s>, memref<32x64xbf16, #s>
        scf.yield %r : vector<64x64xf32>
      }
      vector.transfer_write %sum, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
    }
    return
  }

  // An accumulator over 64 KiB (over 128 registers per lane of the
  // warpgroup) keeps the ordinary path.
  // CHECK-LABEL: func.func @big_accumulator
  // CHECK-NOT: mgpu.wgmma_
  // CHECK: return
  func.func @big_accumulator() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<128x16xbf16, #s>, memref<16x256xbf16, #s>, memref<128x256xf32, #s>] {
    ^bb0(%a: memref<128x16xbf16, #s>, %b: memref<16x256xbf16, #s>, %c: memref<128x256xf32, #s>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<128x256xf32, #s>, vector<128x256xf32>
      %r = mgpu.wgmma %acc, %a, %b : vector<128x256xf32>, memref<128x16xbf16, #s>, memref<16x256xbf16, #s>
      vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x256xf32>, memref<128x256xf32, #s>
    }
    return
  }

  // a in registers is staged row-major through the scratch, then copied
  // into the core-matrix layout like a block in shared memory.
  // CHECK-LABEL: func.func @register_a
  // CHECK: vector.store %{{.*}}, %[[STAGED:.*]][%{{.*}}] {{.*}} : memref<1024xf16, #gpu.address_space<workgroup>>, vector<4xf16>
  // CHECK: mgpu.warpgroup_barrier
  // CHECK: vector.load %[[STAGED]][%{{.*}}] : memref<1024xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  // CHECK: mgpu.commit_smem
  // CHECK: mgpu.warpgroup_barrier
  // CHECK: mgpu.wgmma_shared %{{.*}}, %{{.*}}, %{{.*}} b_mn_major {a_type = f16, b_type = f16} : vector<4xf32>
  // CHECK: return
  func.func @register_a() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<16x8xf16, #s>, memref<64x8xf32, #s>] {
    ^bb0(%b: memref<16x8xf16, #s>, %c: memref<64x8xf32, #s>):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x8xf32>
      %x = arith.constant dense<1.0> : vector<64x16xf16>
      %r = mgpu.wgmma %zero, %x, %b : vector<64x8xf32>, vector<64x16xf16>, memref<16x8xf16, #s>
      vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x8xf32>, memref<64x8xf32, #s>
    }
    return
  }
}
