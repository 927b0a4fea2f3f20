// mgpu.wgmma reading operands in place (a_transforms / b_transforms, as
// --mgpu-expand-pipelines="apply-transforms=1" marks blocks that TMA
// stages with the 128-byte swizzle): no copy into the scratch, no proxy
// fence or barrier, descriptors with the swizzle mode; the MMAs stay in
// flight after their commit until mgpu.wgmma_wait. The lane path and the
// host backends keep such buffers row-major and drop the transforms.
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-select-tensor-cores="enable=0" --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s --check-prefix=LANES
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-lower-to-cpu | FileCheck %s --check-prefix=CPU

#s = #gpu.address_space<workgroup>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!ablock = memref<128x64xbf16, #s>
!alow = memref<64x64xbf16, strided<[64, 1], offset: 4096>, #s>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // CHECK-LABEL: func.func @in_place
  // CHECK: gpu.launch
  // CHECK-NOT: mgpu.commit_smem
  // a, lower tile (8 KiB into the block), K-major: 128-byte swizzle (2^62),
  // 8-row groups 1024 bytes apart (64 << 32), leading 16 bytes (1 << 16).
  // CHECK: %[[A0:.*]] = arith.constant 8192 : index
  // CHECK: %[[A0I:.*]] = arith.index_cast %[[A0]] : index to i64
  // CHECK: arith.addi %{{.*}}, %[[A0I]] : i64
  // CHECK: mgpu.wgmma_fence
  // CHECK: arith.constant 4611686293305360384 : i64
  // b, N-major: the next 64 columns one 8 KiB tile further (512 << 16).
  // CHECK: arith.constant 4611686293338849280 : i64
  // CHECK: mgpu.wgmma_shared %{{.*}}, %{{.*}}, %{{.*}} b_mn_major {a_type = bf16, b_type = bf16} : vector<64xf32>
  // The next K step: a 32 bytes along its swizzled rows (from the view's
  // start, 8 KiB in), b 16 rows down.
  // CHECK: arith.constant 32 : i64
  // CHECK: arith.constant 2048 : i64
  // CHECK-COUNT-3: mgpu.wgmma_shared
  // CHECK: mgpu.wgmma_commit_group
  // CHECK-NOT: mgpu.wgmma_wait_group
  // CHECK: mgpu.wgmma_fence
  // CHECK-COUNT-4: mgpu.wgmma_shared
  // CHECK: mgpu.wgmma_commit_group
  // The wait comes before the fragments are stored (from the registers,
  // two columns per access).
  // CHECK-NOT: {{memref|vector}}.store
  // CHECK: mgpu.wgmma_wait_group 0
  // CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK-NOT: mgpu.wgmma_
  // CHECK: return
  // LANES-LABEL: func.func @in_place
  // LANES: gpu.launch
  // LANES-NOT: mgpu.wgmma_
  // LANES-NOT: transforms
  // LANES: return
  // CPU-LABEL: func.func @in_place
  // CPU-NOT: mgpu.wgmma
  // CPU-NOT: transforms
  // CPU: return
  func.func @in_place() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [!ablock, memref<64x128xbf16, #s>, memref<64x128xf32, #s>] {
    ^bb0(%a: !ablock, %b: memref<64x128xbf16, #s>, %c: memref<64x128xf32, #s>):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %low = memref.subview %a[64, 0] [64, 64] [1, 1] : !ablock to !alow
      %r = mgpu.wgmma %zero, %low, %b a_transforms #sw b_transforms #sw
          : vector<64x128xf32>, !alow, memref<64x128xbf16, #s>
      %r2 = mgpu.wgmma %r, %low, %b a_transforms #sw b_transforms #sw
          : vector<64x128xf32>, !alow, memref<64x128xbf16, #s>
      mgpu.wgmma_wait 0
      vector.transfer_write %r2, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #s>
    }
    return
  }

  // A pipeline that keeps one step's MMAs in flight (mgpu.wgmma_wait 1)
  // while it frees the previous step's operands: no wait for all of them
  // before the release or at the end of the loop body; one after the loop,
  // where the user waits for them, before the accumulator is stored. The
  // release comes after the warpgroup's barrier: each warp's part of an MMA
  // reads the operands until that warp's own wait.
  // CHECK-LABEL: func.func @pipelined
  // CHECK: scf.for
  // CHECK-COUNT-4: mgpu.wgmma_shared
  // CHECK: mgpu.wgmma_commit_group
  // CHECK-NOT: mgpu.wgmma_wait_group 0
  // CHECK: mgpu.wgmma_wait_group 1
  // CHECK-NOT: mgpu.wgmma_wait_group 0
  // CHECK: scf.if
  // CHECK-NOT: mgpu.wgmma_wait_group 0
  // CHECK: mgpu.warpgroup_barrier
  // CHECK-NEXT: mgpu.barrier_arrive
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: mgpu.wgmma_wait_group 0
  // CHECK: vector.store
  // LANES-LABEL: func.func @pipelined
  // LANES-NOT: mgpu.wgmma_
  // CPU-LABEL: func.func @pipelined
  func.func @pipelined() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [!ablock, memref<64x128xbf16, #s>, memref<64x128xf32, #s>,
                 !mgpu.barrier<count = 1>] {
    ^bb0(%a: !ablock, %b: memref<64x128xbf16, #s>, %c: memref<64x128xf32, #s>,
         %free: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %low = memref.subview %a[64, 0] [64, 64] [1, 1] : !ablock to !alow
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc_k = %zero)
          -> vector<64x128xf32> {
        %next = mgpu.wgmma %acc_k, %low, %b a_transforms #sw b_transforms #sw
            : vector<64x128xf32>, !alow, memref<64x128xbf16, #s>
        mgpu.wgmma_wait 1
        %started = arith.cmpi uge, %k, %c1 : index
        scf.if %started {
          mgpu.barrier_arrive %free[%c0] : !mgpu.barrier<count = 1>
        }
        scf.yield %next : vector<64x128xf32>
      }
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #s>
    }
    return
  }

  // JAX's FA3 arrives on its schedule barrier between issuing QK and
  // reading it: barrier arrivals and waits leave the MMAs in flight (JAX
  // waits only at the accumulator's read). The release after the wait
  // comes after the warpgroup's barrier: each warp reads the operands until
  // its own wait.
  // CHECK-LABEL: func.func @across_arrival
  // CHECK-COUNT-4: mgpu.wgmma_shared
  // CHECK: mgpu.wgmma_commit_group
  // CHECK-NOT: mgpu.wgmma_wait_group
  // CHECK: mgpu.barrier_arrive %{{.*}}[%{{.*}}] : !mgpu.barrier<count = 2, arrivals = 2>
  // CHECK-NOT: mgpu.wgmma_wait_group
  // CHECK: mgpu.barrier_wait %{{.*}}[%{{.*}}] parity %{{.*}} {{.*}}: !mgpu.barrier<count = 2, arrivals = 2>
  // CHECK: mgpu.wgmma_wait_group 0
  // CHECK-NOT: mgpu.barrier_arrive
  // CHECK: mgpu.warpgroup_barrier
  // CHECK-NEXT: mgpu.barrier_arrive %{{.*}}[%{{.*}}] : !mgpu.barrier<count = 1>
  // LANES-LABEL: func.func @across_arrival
  // CPU-LABEL: func.func @across_arrival
  func.func @across_arrival() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [!ablock, memref<64x128xbf16, #s>, memref<64x128xf32, #s>,
                 !mgpu.barrier<count = 2, arrivals = 2>, !mgpu.barrier<count = 1>] {
    ^bb0(%a: !ablock, %b: memref<64x128xbf16, #s>, %c: memref<64x128xf32, #s>,
         %schedule: !mgpu.barrier<count = 2, arrivals = 2>, %free: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %low = memref.subview %a[64, 0] [64, 64] [1, 1] : !ablock to !alow
      %r = mgpu.wgmma %zero, %low, %b a_transforms #sw b_transforms #sw
          : vector<64x128xf32>, !alow, memref<64x128xbf16, #s>
      mgpu.barrier_arrive %schedule[%c0] : !mgpu.barrier<count = 2, arrivals = 2>
      %even = arith.constant false
      mgpu.barrier_wait %schedule[%c0] parity %even : !mgpu.barrier<count = 2, arrivals = 2>
      mgpu.wgmma_wait 0
      mgpu.barrier_arrive %free[%c0] : !mgpu.barrier<count = 1>
      vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #s>
    }
    return
  }
}
