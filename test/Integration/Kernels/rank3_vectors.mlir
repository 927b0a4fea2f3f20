// Vectors of rank 3 in a kernel body: JAX issue #39997's kernel (a 4x128x32
// f32 buffer in shared memory, its mean over the middle axis, broadcast
// back with broadcast_in_dim and subtracted, written to global memory),
// which JAX's layout inference refused for rank > 2. Here x comes in by
// TMA (a 3-D window), the mean is a vector.multi_reduction over dimension 1
// and broadcast_in_dim is a vector.broadcast and a transpose:
// o[b][r][c] = x[b][r][c] - mean_r x[b][r][c].
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: Compiling entry function 'center_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// CHECK: mismatches: 0
// CHECK-NEXT: o[3][5][7]: -58.5

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!smem = memref<4x128x32xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @center(%x: memref<4x128x32xf32>, %o: memref<4x128x32xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<4x128x32xf32>)
        outs(%o : memref<4x128x32xf32>) scratch [!smem, !bar] {
    ^bb0(%xg: memref<4x128x32xf32>, %og: memref<4x128x32xf32>, %s: !smem, %b: !bar):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %xg, %s, %b[%c0] : memref<4x128x32xf32>, !smem, !bar
      mgpu.barrier_wait %b[%c0] : !bar
      %v = vector.load %s[%c0, %c0, %c0] : !smem, vector<4x128x32xf32>
      %zero = arith.constant dense<0.0> : vector<4x32xf32>
      %sum = vector.multi_reduction <add>, %v, %zero [1]
          : vector<4x128x32xf32> to vector<4x32xf32>
      %n = arith.constant dense<128.0> : vector<4x32xf32>
      %mean = arith.divf %sum, %n : vector<4x32xf32>
      %rows = vector.broadcast %mean : vector<4x32xf32> to vector<128x4x32xf32>
      %back = vector.transpose %rows, [1, 0, 2]
          : vector<128x4x32xf32> to vector<4x128x32xf32>
      %centered = arith.subf %v, %back : vector<4x128x32xf32>
      vector.store %centered, %og[%c0, %c0, %c0]
          : memref<4x128x32xf32>, vector<4x128x32xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    // x[b][r][c] = 4 b + r + c / 4: row means are b * 4 + 63.5 + c / 4,
    // exact in f32.
    %x = memref.alloc() : memref<4x128x32xf32>
    scf.for %b = %c0 to %c4 step %c1 {
      scf.for %r = %c0 to %c128 step %c1 {
        scf.for %c = %c0 to %c32 step %c1 {
          %b4 = arith.muli %b, %c4 : index
          %br = arith.addi %b4, %r : index
          %bri = arith.index_cast %br : index to i32
          %brf = arith.sitofp %bri : i32 to f32
          %ci = arith.index_cast %c : index to i32
          %cf = arith.sitofp %ci : i32 to f32
          %q = arith.constant 0.25 : f32
          %cq = arith.mulf %cf, %q : f32
          %v = arith.addf %brf, %cq : f32
          memref.store %v, %x[%b, %r, %c] : memref<4x128x32xf32>
        }
      }
    }
    %o = memref.alloc() : memref<4x128x32xf32>
    call @center(%x, %o) : (memref<4x128x32xf32>, memref<4x128x32xf32>) -> ()
    // The reference: o[b][r][c] = r - 63.5.
    %izero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %half = arith.constant 63.5 : f32
    %bad = scf.for %b = %c0 to %c4 step %c1 iter_args(%n0 = %izero) -> i32 {
      %nb = scf.for %r = %c0 to %c128 step %c1 iter_args(%n1 = %n0) -> i32 {
        %nr = scf.for %c = %c0 to %c32 step %c1 iter_args(%n = %n1) -> i32 {
          %ri = arith.index_cast %r : index to i32
          %rf = arith.sitofp %ri : i32 to f32
          %want = arith.subf %rf, %half : f32
          %got = memref.load %o[%b, %r, %c] : memref<4x128x32xf32>
          %ne = arith.cmpf une, %got, %want : f32
          %inc = arith.select %ne, %one, %izero : i32
          %n2 = arith.addi %n, %inc : i32
          scf.yield %n2 : i32
        }
        scf.yield %nr : i32
      }
      scf.yield %nb : i32
    }
    vector.print str "mismatches: "
    vector.print %bad : i32
    %sample = memref.load %o[%c3, %c5, %c7] : memref<4x128x32xf32>
    vector.print str "o[3][5][7]: "
    vector.print %sample : f32
    return
  }
}
