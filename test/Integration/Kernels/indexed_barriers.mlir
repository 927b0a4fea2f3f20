// Barrier arrays indexed as JAX's tests index them. JAX's
// test_copy_gmem_to_smem_with_indexed_barrier (tests/pallas/
// mosaic_gpu_test.py:1657) copies x into shared memory counted on one
// barrier of an array of 4, or of a 2x2 array (`plgpu.Barrier(num_barriers=
// (2, 2))` indexed `.at[(1, 1)]`), waits on it and writes x + 1. mgpu's
// barrier arrays are one-dimensional: a 2-D array is the row-major array of
// its elements, so `.at[(i, j)]` of a (2, 2) array is barrier 2 i + j.
// test_barrier_repeated_indexing (`.at[2:4].at[1:2]` of 4 barriers) is
// barrier 3. Each kernel below takes the barrier index as an operand.
// RUN: %run_on_backends %s --match-full-lines

// CHECK: barrier 0: 0
// CHECK-NEXT: barrier 1: 0
// CHECK-NEXT: barrier 2: 0
// CHECK-NEXT: barrier 3: 0
// CHECK-NEXT: repeated indexing: 128

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!smem = memref<128xf32, #gpu.address_space<workgroup>>
!bars = !mgpu.barrier<count = 4>

module {
  // x + 1 through barrier `which` of four.
  func.func @indexed(%x: memref<128xf32>, %o: memref<128xf32>, %which: memref<1xindex>) {
    mgpu.mpmd_map meshes [#one] ins(%x, %which : memref<128xf32>, memref<1xindex>)
        outs(%o : memref<128xf32>) scratch [!smem, !bars] {
    ^bb0(%xg: memref<128xf32>, %wg: memref<1xindex>, %og: memref<128xf32>,
         %s: !smem, %b: !bars):
      %c0 = arith.constant 0 : index
      %i = memref.load %wg[%c0] : memref<1xindex>
      mgpu.copy_gmem_to_smem %xg, %s, %b[%i] : memref<128xf32>, !smem, !bars
      mgpu.barrier_wait %b[%i] : !bars
      %v = vector.load %s[%c0] : !smem, vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %r = arith.addf %v, %one : vector<128xf32>
      vector.store %r, %og[%c0] : memref<128xf32>, vector<128xf32>
    }
    return
  }

  // test_barrier_repeated_indexing: arrive on `.at[2:4].at[1:2]`, wait on
  // `.at[3]`, the same barrier; then write ones.
  func.func @repeated(%o: memref<128xf32>) {
    mgpu.mpmd_map meshes [#one] outs(%o : memref<128xf32>) scratch [!bars] {
    ^bb0(%og: memref<128xf32>, %b: !bars):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %sliced = arith.addi %c2, %c1 : index
      mgpu.barrier_arrive %b[%sliced] : !bars
      mgpu.barrier_wait %b[%c3] : !bars
      %ones = arith.constant dense<1.0> : vector<128xf32>
      vector.store %ones, %og[%c0] : memref<128xf32>, vector<128xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %x = memref.alloc() : memref<128xf32>
    scf.for %i = %c0 to %c128 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<128xf32>
    }
    %which = memref.alloc() : memref<1xindex>
    %o = memref.alloc() : memref<128xf32>
    %izero = arith.constant 0 : i32
    %ione = arith.constant 1 : i32
    %fone = arith.constant 1.0 : f32
    scf.for %w = %c0 to %c4 step %c1 {
      memref.store %w, %which[%c0] : memref<1xindex>
      func.call @indexed(%x, %o, %which) : (memref<128xf32>, memref<128xf32>, memref<1xindex>) -> ()
      %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %izero) -> i32 {
        %a = memref.load %x[%i] : memref<128xf32>
        %want = arith.addf %a, %fone : f32
        %got = memref.load %o[%i] : memref<128xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %ione, %izero : i32
        %n2 = arith.addi %n, %inc : i32
        scf.yield %n2 : i32
      }
      %wi = arith.index_cast %w : index to i32
      gpu.printf "barrier %d: %d\n", %wi, %bad : i32, i32
    }
    func.call @repeated(%o) : (memref<128xf32>) -> ()
    %ones = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %izero) -> i32 {
      %got = memref.load %o[%i] : memref<128xf32>
      %eq = arith.cmpf oeq, %got, %fone : f32
      %inc = arith.select %eq, %ione, %izero : i32
      %n2 = arith.addi %n, %inc : i32
      scf.yield %n2 : i32
    }
    gpu.printf "repeated indexing: %d\n", %ones : i32
    return
  }
}
