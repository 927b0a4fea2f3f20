// delay_release as JAX's Hopper kernels use it: MMAs kept in flight across
// pipeline steps. @carry_in_flight is an emit_pipeline whose body issues a
// wgmma on the step's slots, waits only for the MMAs before it
// (`wgmma_wait 1`) and carries the accumulator; its specs' `delay_release
// = 1` keep a step's slots one step longer, so the fetch that refills them
// comes after that wait (the pipeline fetches 1 step ahead of 3 slots, not
// 2). The warp-specialized example matmul with `delay_release = 1` on its
// inputs: the compute threads wait for all but the latest step's MMAs
// (`wgmma.wait_group 1`) and release the slots of the step before.
// RUN: %run_on_backends %s --match-full-lines
// RUN: %run_on_backends %s --match-full-lines -- --tensor-cores=0
// RUN: sed 's/transforms = \[#mgpu.tile<\[64, 64\]>, #mgpu.swizzle<128>\]>$/transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>], delay_release = 1>/' %mgpu_src_root/examples/matmul_ws_pipeline.mlir > %t.ws.mlir
// RUN: grep -c "delay_release = 1" %t.ws.mlir | FileCheck %s --check-prefix=EDITED
// RUN: cat %t.ws.mlir %S/matmul_ws_pipeline.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// Both release correctly on several seeded schedules of the emulator's
// async operations (Integration/Emulate/schedules.mlir plants the bugs).
// RUN: mgpu-run %s -e main --backend=emulate --emulate-schedules 3 | FileCheck %s --match-full-lines
// RUN: mgpu-run %t.mlir -e main --backend=emulate --emulate-schedules 3 | FileCheck %t.mlir --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %t.mlir | %extract_ptx -o %t.ws.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ws.ptx -o %t.ws.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=WS < %t.ws.ptx
// EDITED: 2
// PTXAS-NOT: bytes spill
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX: wgmma.wait_group.sync.aligned 1;
// WS: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// WS: wgmma.wait_group.sync.aligned 1;

// CHECK: in flight mismatches: 0

#one = #mgpu.mesh<grid = [2], grid_names = ["i"]>
#a = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>], delay_release = 1>
#b = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>], delay_release = 1>
#three = #mgpu.compiler_params<max_concurrent_steps = 3>
!smem_ab = memref<64x64xbf16, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // c[64i:64i+64, :] = a[64i:64i+64, :] @ b over 8 K steps of 64.
  func.func @carry_in_flight(%a: memref<128x512xbf16>, %b: memref<512x64xbf16>,
                             %c: memref<128x64xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%a, %b : memref<128x512xbf16>, memref<512x64xbf16>)
        outs(%c : memref<128x64xf32>) {
    ^bb0(%ga: memref<128x512xbf16>, %gb: memref<512x64xbf16>, %gc: memref<128x64xf32>):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c64 : index
      %rows = memref.subview %ga[%row, 0] [64, 512] [1, 1]
          : memref<128x512xbf16> to memref<64x512xbf16, strided<[512, 1], offset: ?>>
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %acc = mgpu.emit_pipeline grid [8]
          ins(%rows, %gb : memref<64x512xbf16, strided<[512, 1], offset: ?>>, memref<512x64xbf16>)
          init_carry(%zero : vector<64x64xf32>)
          in_specs [#a, #b] out_specs [] params #three -> vector<64x64xf32> {
      ^bb0(%k: index, %as: !smem_ab, %bs: !smem_ab, %partial: vector<64x64xf32>):
        %d = mgpu.wgmma %partial, %as, %bs : vector<64x64xf32>, !smem_ab, !smem_ab
        // This step's MMAs may still run; the step before's are done, so
        // its slots (kept by delay_release) may be refilled.
        mgpu.wgmma_wait 1
        mgpu.yield %d : vector<64x64xf32>
      }
      mgpu.wgmma_wait 0
      vector.store %acc, %gc[%row, %c0] : memref<128x64xf32>, vector<64x64xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %zeroi = arith.constant 0 : i32
    %onei = arith.constant 1 : i32
    // a[i][k] = (i + k) % 5 - 2, b[k][j] = (3k + j) % 7 - 3.
    %a = memref.alloc() : memref<128x512xbf16>
    %b = memref.alloc() : memref<512x64xbf16>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c512 step %c1 {
        %s = arith.addi %i, %k : index
        %m = arith.remui %s, %c5 : index
        %v = arith.subi %m, %c3 : index
        %v1 = arith.addi %v, %c1 : index
        %vi = arith.index_cast %v1 : index to i32
        %vf = arith.sitofp %vi : i32 to bf16
        memref.store %vf, %a[%i, %k] : memref<128x512xbf16>
      }
    }
    scf.for %k = %c0 to %c512 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %k3 = arith.muli %k, %c3 : index
        %s = arith.addi %k3, %j : index
        %m = arith.remui %s, %c7 : index
        %v = arith.subi %m, %c3 : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to bf16
        memref.store %vf, %b[%k, %j] : memref<512x64xbf16>
      }
    }
    %c = memref.alloc() : memref<128x64xf32>
    func.call @carry_in_flight(%a, %b, %c) : (memref<128x512xbf16>, memref<512x64xbf16>, memref<128x64xf32>) -> ()
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zeroi) -> i32 {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %ref = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %zero) -> f32 {
          %p = memref.load %a[%i, %k] : memref<128x512xbf16>
          %q = memref.load %b[%k, %j] : memref<512x64xbf16>
          %pf = arith.extf %p : bf16 to f32
          %qf = arith.extf %q : bf16 to f32
          %pq = arith.mulf %pf, %qf : f32
          %acc2 = arith.addf %acc, %pq : f32
          scf.yield %acc2 : f32
        }
        %got = memref.load %c[%i, %j] : memref<128x64xf32>
        %ne = arith.cmpf une, %got, %ref : f32
        %inc = arith.select %ne, %onei, %zeroi : i32
        %m2 = arith.addi %m, %inc : i32
        scf.yield %m2 : i32
      }
      scf.yield %row : i32
    }
    vector.print str "in flight mismatches: "
    vector.print %bad : i32
    return
  }
}
