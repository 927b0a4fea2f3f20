// examples/matmul_pallas_call.mlir (JAX's test_realistic_matmul: a plain
// pallas_call with a scratch accumulator, JAX's (8, 64) operand tiling) on
// every backend, against a scalar reference. Inputs are small integers and
// every sum is at most 256 in magnitude, so the f16 result is exact.
// RUN: cat %mgpu_src_root/examples/matmul_pallas_call.mlir %s > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// Ordinary instructions everywhere (the lane path).
// RUN: %run_on_backends %t.mlir --match-full-lines -- --tensor-cores=0
// The tensor cores by default on sm_90a (no tensor-cores option): the 8
// MMAs of a step (two 64-row halves of the 128x128 accumulator, four K
// steps of 16). test/Bench/tensor-core-report.mlir checks that the loop
// has no lane access to shared memory.
// RUN: mgpu-opt %mgpu_src_root/examples/matmul_pallas_call.mlir --mgpu-to-binary="format=isa" \
// RUN:   | %python %mgpu_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX
// The dynamic shared memory is the extern array, aligned for the 128-byte
// swizzle, with no static shared variable.
// PTX-NOT: .shared .align
// PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// PTX-NOT: .shared .align
// PTX: .reqntid 128, 1, 1
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX-NOT: wgmma.mma_async

// (x * mul + y) mod 5 - 2.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c5 : index
  %d = arith.subi %m, %c2 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x256xf16>
  %b = memref.alloc() : memref<256x256xf16>
  %o = memref.alloc() : memref<256x256xf16>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = func.call @small(%i, %j, %c2) : (index, index, index) -> f32
      %y = func.call @small(%i, %j, %c3) : (index, index, index) -> f32
      %xh = arith.truncf %x : f32 to f16
      %yh = arith.truncf %y : f32 to f16
      memref.store %xh, %a[%i, %j] : memref<256x256xf16>
      memref.store %yh, %b[%i, %j] : memref<256x256xf16>
    }
  }
  func.call @matmul_pallas_call(%a, %b, %o) : (memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf16>) -> ()
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %count) -> index {
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%s = %f0) -> f32 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %goth = memref.load %o[%i, %j] : memref<256x256xf16>
      %got = arith.extf %goth : f16 to f32
      %ne = arith.cmpf une, %got, %sum : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %m2 = arith.addi %m, %inc : index
      scf.yield %m2 : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  %c200 = arith.constant 200 : index
  %v = vector.load %o[%c200, %c0] : memref<256x256xf16>, vector<4xf16>
  %vf = arith.extf %v : vector<4xf16> to vector<4xf32>
  vector.print %vf : vector<4xf32>
  return
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( {{.*}} )
