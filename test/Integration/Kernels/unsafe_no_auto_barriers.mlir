// JAX's `unsafe_no_auto_barriers` and `lowering_semantics` compiler params.
// With `unsafe_no_auto_barriers = true` --mgpu-place-barriers puts no barrier
// between the lanes' accesses to shared memory:
// - own.mlir writes a vector to shared memory and reads it back in the
//   same shape (512 elements, 4 per lane, none shared), so each lane reads
//   only what it wrote: right numbers on every backend, and its PTX has no
//   bar.sync between the store and the load (with the flag off it has);
// - others.mlir reads back the upper half, which other warps wrote: the
//   emulator reports the unsynchronized read at its op, while the same
//   kernel without the flag gets its barrier and the right numbers.
// RUN: rm -rf %t && split-file %s %t
// RUN: %run_on_backends %t/own.mlir --match-full-lines --check-prefix=OWN
// RUN: not mgpu-run %t/others.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: sed 's/unsafe_no_auto_barriers = true/unsafe_no_auto_barriers = false/' %t/others.mlir > %t/synced.mlir
// RUN: %run_on_backends %t/synced.mlir --match-full-lines --check-prefix=SYNCED
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %t/own.mlir -o %t/own.bin.mlir
// RUN: %extract_ptx %t/own.bin.mlir -o %t/own.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/own.ptx
// RUN: %ptxas -arch=sm_90a %t/own.ptx -o %t/own.cubin
// RUN: sed 's/unsafe_no_auto_barriers = true/unsafe_no_auto_barriers = false/' %t/own.mlir > %t/own-synced.mlir
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %t/own-synced.mlir -o %t/own-synced.bin.mlir
// RUN: %extract_ptx %t/own-synced.bin.mlir -o %t/own-synced.ptx
// RUN: FileCheck %s --check-prefix=PTX-SYNCED < %t/own-synced.ptx

// RACE: others.mlir:15:12: error:
// Between the load of x and the store of the result: no barrier with the
// flag (the read of shared memory even folds into the value stored), one
// between the store into shared memory and the load back without it (and
// none before the store: x is another buffer).
// PTX: ld.global.v4.b32
// PTX-NOT: bar.sync
// PTX: st.global.v4.b32
// PTX-SYNCED: ld.global.v4.b32
// PTX-SYNCED-NOT: bar.sync
// PTX-SYNCED: st.shared.v4.b32
// PTX-SYNCED-NEXT: bar.sync 1, 128;
// PTX-SYNCED-NEXT: ld.shared.v4.b32

//--- own.mlir
// OWN: own: 0 2 1022
#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#unsafe = #mgpu.compiler_params<unsafe_no_auto_barriers = true, lowering_semantics = lane>
!smem = memref<512xf32, #gpu.address_space<workgroup>>
module {
  func.func @own(%x: memref<512xf32>, %o: memref<512xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<512xf32>) outs(%o : memref<512xf32>)
        scratch [!smem] params #unsafe {
    ^bb0(%xg: memref<512xf32>, %og: memref<512xf32>, %s: !smem):
      %c0 = arith.constant 0 : index
      %v = vector.load %xg[%c0] : memref<512xf32>, vector<512xf32>
      %d = arith.addf %v, %v : vector<512xf32>
      vector.store %d, %s[%c0] : !smem, vector<512xf32>
      %r = vector.load %s[%c0] : !smem, vector<512xf32>
      vector.store %r, %og[%c0] : memref<512xf32>, vector<512xf32>
    }
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c511 = arith.constant 511 : index
    %c512 = arith.constant 512 : index
    %x = memref.alloc() : memref<512xf32>
    scf.for %i = %c0 to %c512 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<512xf32>
    }
    %o = memref.alloc() : memref<512xf32>
    func.call @own(%x, %o) : (memref<512xf32>, memref<512xf32>) -> ()
    %a = memref.load %o[%c0] : memref<512xf32>
    %b = memref.load %o[%c1] : memref<512xf32>
    %e = memref.load %o[%c511] : memref<512xf32>
    gpu.printf "own: %g %g %g\n", %a, %b, %e : f32, f32, f32
    return
  }
}

//--- others.mlir
// SYNCED: others: 512 712 1022
#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#unsafe = #mgpu.compiler_params<unsafe_no_auto_barriers = true>
!smem = memref<512xf32, #gpu.address_space<workgroup>>
module {
  func.func @others(%x: memref<512xf32>, %o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<512xf32>) outs(%o : memref<256xf32>)
        scratch [!smem] params #unsafe {
    ^bb0(%xg: memref<512xf32>, %og: memref<256xf32>, %s: !smem):
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %v = vector.load %xg[%c0] : memref<512xf32>, vector<512xf32>
      %d = arith.addf %v, %v : vector<512xf32>
      vector.store %d, %s[%c0] : !smem, vector<512xf32>
      %r = vector.load %s[%c256] : !smem, vector<256xf32>
      vector.store %r, %og[%c0] : memref<256xf32>, vector<256xf32>
    }
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %c255 = arith.constant 255 : index
    %c512 = arith.constant 512 : index
    %x = memref.alloc() : memref<512xf32>
    scf.for %i = %c0 to %c512 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<512xf32>
    }
    %o = memref.alloc() : memref<256xf32>
    func.call @others(%x, %o) : (memref<512xf32>, memref<256xf32>) -> ()
    %a = memref.load %o[%c0] : memref<256xf32>
    %b = memref.load %o[%c100] : memref<256xf32>
    %e = memref.load %o[%c255] : memref<256xf32>
    gpu.printf "others: %g %g %g\n", %a, %b, %e : f32, f32, f32
    return
  }
}
