// Shared memory starts undefined, as on the GPU (and in JAX, whose scratch
// is not initialized): mgpu no longer zeroes a CTA's shared scratch when it
// starts (on the GPU that cost every CTA a pass over its buffers), the
// emulator fills it with poison (0xff bytes; another pattern under
// --emulate-seed) and interpret mode with 0xff bytes. A kernel that reads
// scratch nothing wrote used to get zeros everywhere, right numbers by
// luck; now the emulator reports the read at its op and the CPU gives NaN.
//
// The kernel: a row sum over a sequential axis accumulated in a scratch
// buffer (pl.when(k == 0) initializes it, as JAX kernels do), written out
// at the last step. Taking the initialization out plants the bug.
// RUN: %run_on_backends %s --match-full-lines
// RUN: sed 's/^ *scf.if %first {$/      scf.if %never {/' %s > %t.mlir
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=INIT
// Caught under two seeded schedules too (the planted-bug catalogue,
// docs/Conformance.md).
// RUN: not mgpu-run %t.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// RUN: mgpu-run %t.mlir -e main --backend=cpu | FileCheck %s --check-prefix=POISON

// CHECK: sums: ( 8128, 24512, 40896, 57280 )
// INIT: undefined-smem.mlir.tmp.mlir:{{[0-9]+}}:14: error: reads shared memory that nothing wrote
// POISON: sums: ( {{-?nan}}, {{-?nan}}, {{-?nan}}, {{-?nan}} )

#x = #mgpu.block_spec<shape = [4, 32], index_map = affine_map<(k) -> (0, k)>>
#o = #mgpu.block_spec<shape = [4], index_map = affine_map<(k) -> (0)>>
#seq = #mgpu.compiler_params<dimension_semantics = [sequential]>
!acc = memref<4xf32, #gpu.address_space<workgroup>>

module {
  func.func @row_sums(%x: memref<4x128xf32>, %o: memref<4xf32>) {
    mgpu.pallas_call grid [4] ins(%x : memref<4x128xf32>) outs(%o : memref<4xf32>)
        in_specs [#x] out_specs [#o] scratch [!acc] params #seq {
    ^bb0(%xs: memref<4x32xf32, #gpu.address_space<workgroup>>, %os: !acc, %acc: !acc):
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %pad = arith.constant 0.0 : f32
      %k = mgpu.program_id 0
      %first = arith.cmpi eq, %k, %c0 : index
      %never = arith.constant false
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<4xf32>
        vector.transfer_write %zero, %acc[%c0] {in_bounds = [true]} : vector<4xf32>, !acc
      }
      %old = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : !acc, vector<4xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<4x32xf32, #gpu.address_space<workgroup>>, vector<4x32xf32>
      %s = vector.multi_reduction <add>, %v, %old [1] : vector<4x32xf32> to vector<4xf32>
      vector.transfer_write %s, %acc[%c0] {in_bounds = [true]} : vector<4xf32>, !acc
      %last = arith.cmpi eq, %k, %c3 : index
      scf.if %last {
        vector.transfer_write %s, %os[%c0] {in_bounds = [true]} : vector<4xf32>, !acc
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %x = memref.alloc() : memref<4x128xf32>
    %o = memref.alloc() : memref<4xf32>
    // x[r, c] = 128 r + c: row r sums to 16384 r + 8128.
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c128 step %c1 {
        %e = arith.muli %r, %c128 : index
        %f = arith.addi %e, %c : index
        %i = arith.index_cast %f : index to i32
        %v = arith.sitofp %i : i32 to f32
        memref.store %v, %x[%r, %c] : memref<4x128xf32>
      }
    }
    func.call @row_sums(%x, %o) : (memref<4x128xf32>, memref<4xf32>) -> ()
    %pad = arith.constant 0.0 : f32
    %s = vector.transfer_read %o[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
    vector.print str "sums: "
    vector.print %s : vector<4xf32>
    memref.dealloc %x : memref<4x128xf32>
    memref.dealloc %o : memref<4xf32>
    return
  }
}
