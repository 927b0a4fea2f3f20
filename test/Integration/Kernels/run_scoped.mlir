// `pl.run_scoped` as JAX kernels use it (mgpu.run_scoped): shared buffers
// and barriers that live in one region, and a wgmma accumulator (plgpu.ACC)
// that starts at zero. @matmul_tiles is a core_map-style kernel (one Pallas
// thread) that, for each of two row tiles, copies a and b into scoped
// buffers, waits on a scoped barrier and multiplies into a scoped
// accumulator; a second scope stages the result for a TMA store. The scopes
// sit in a loop, so their barriers run a second phase. @shared_by_threads
// is a two-thread kernel whose scoped buffer is shared by both threads
// (`collective_axes ["wg"]`, as JAX asks): each writes its half, and after a
// barrier both read the whole buffer.
// RUN: %run_on_backends %s --match-full-lines
// RUN: %run_on_backends %s --match-full-lines -- --tensor-cores=0
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir --object 0 -o %t.0.ptx
// RUN: %extract_ptx %t.mlir --object 1 -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a %t.0.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.1.ptx -o %t.1.cubin

// CHECK: matmul mismatches: 0
// CHECK-NEXT: shared mismatches: 0

#one = #mgpu.mesh<grid = [1], grid_names = ["g"]>
#two = #mgpu.mesh<grid = [1], grid_names = ["g"], num_threads = 2, thread_name = "wg">
!a_smem = memref<64x64xf16, #gpu.address_space<workgroup>>
!c_smem = memref<64x64xf32, #gpu.address_space<workgroup>>
!bars = !mgpu.barrier<count = 2>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @matmul_tiles(%a: memref<128x64xf16>, %b: memref<64x64xf16>,
                          %c: memref<128x64xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%a, %b : memref<128x64xf16>, memref<64x64xf16>)
        outs(%c : memref<128x64xf32>) {
    ^bb0(%ga: memref<128x64xf16>, %gb: memref<64x64xf16>, %gc: memref<128x64xf32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      scf.for %t = %c0 to %c2 step %c1 {
        %row = arith.muli %t, %c64 : index
        %acc = mgpu.run_scoped -> vector<64x64xf32> {
        ^bb0(%as: !a_smem, %bs: !a_smem, %bar: !bars, %zero: vector<64x64xf32>):
          mgpu.copy_gmem_to_smem %ga[%row, 0], %as, %bar[%c0] : memref<128x64xf16>, !a_smem, !bars
          mgpu.copy_gmem_to_smem %gb, %bs, %bar[%c1] : memref<64x64xf16>, !a_smem, !bars
          mgpu.barrier_wait %bar[%c0] : !bars
          mgpu.barrier_wait %bar[%c1] : !bars
          %d = mgpu.wgmma %zero, %as, %bs : vector<64x64xf32>, !a_smem, !a_smem
          mgpu.wgmma_wait 0
          mgpu.yield %d : vector<64x64xf32>
        }
        mgpu.run_scoped {
        ^bb0(%cs: !c_smem):
          vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
              : vector<64x64xf32>, !c_smem
          mgpu.commit_smem
          mgpu.copy_smem_to_gmem %cs, %gc[%row, 0] : !c_smem, memref<128x64xf32>
          mgpu.wait_smem_to_gmem 0
        }
      }
    }
    return
  }

  // out[t][i] = sum over the buffer written by both threads (i + 1 for the
  // first half, 2 * (i + 1) for the second): the same for both threads.
  func.func @shared_by_threads(%o: memref<2x64xf32>) {
    mgpu.mpmd_map meshes [#two] outs(%o : memref<2x64xf32>) {
    ^bb0(%go: memref<2x64xf32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %wg = mgpu.axis_index "wg"
      %sum = mgpu.run_scoped collective_axes ["wg"] -> vector<64xf32> {
      ^bb0(%buf: memref<128xf32, #gpu.address_space<workgroup>>,
           %bar: !mgpu.barrier<count = 1, arrivals = 2>):
        %iota = vector.step : vector<64xindex>
        %i = arith.index_cast %iota : vector<64xindex> to vector<64xi32>
        %f = arith.sitofp %i : vector<64xi32> to vector<64xf32>
        %one = arith.constant dense<1.0> : vector<64xf32>
        %f1 = arith.addf %f, %one : vector<64xf32>
        // Thread wg writes (wg + 1) (i + 1) into its half.
        %wg1 = arith.addi %wg, %c1 : index
        %w = arith.index_cast %wg1 : index to i32
        %wf = arith.sitofp %w : i32 to f32
        %wv = vector.broadcast %wf : f32 to vector<64xf32>
        %val = arith.mulf %f1, %wv : vector<64xf32>
        %at = arith.muli %wg, %c64 : index
        vector.store %val, %buf[%at] : memref<128xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
        mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
        %lo = vector.load %buf[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        %hi = vector.load %buf[%c64] : memref<128xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        %total = arith.addf %lo, %hi : vector<64xf32>
        mgpu.yield %total : vector<64xf32>
      }
      vector.store %sum, %go[%wg, %c0] : memref<2x64xf32>, vector<64xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %zeroi = arith.constant 0 : i32
    %onei = arith.constant 1 : i32
    %a = memref.alloc() : memref<128x64xf16>
    %b = memref.alloc() : memref<64x64xf16>
    %c = memref.alloc() : memref<128x64xf32>
    // a[i][k] = (i + k) % 5 - 2, b[k][j] = (3k + j) % 7 - 3: small integers,
    // so every sum is exact in any order.
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c64 step %c1 {
        %s = arith.addi %i, %k : index
        %r = arith.remui %s, %c5 : index
        %v = arith.subi %r, %c2 : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f16
        memref.store %vf, %a[%i, %k] : memref<128x64xf16>
      }
    }
    scf.for %k = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %k3 = arith.muli %k, %c3 : index
        %s = arith.addi %k3, %j : index
        %r = arith.remui %s, %c7 : index
        %v = arith.subi %r, %c3 : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f16
        memref.store %vf, %b[%k, %j] : memref<64x64xf16>
      }
    }
    func.call @matmul_tiles(%a, %b, %c) : (memref<128x64xf16>, memref<64x64xf16>, memref<128x64xf32>) -> ()
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zeroi) -> i32 {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %ref = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
          %x = memref.load %a[%i, %k] : memref<128x64xf16>
          %y = memref.load %b[%k, %j] : memref<64x64xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %p = arith.mulf %xf, %yf : f32
          %acc2 = arith.addf %acc, %p : f32
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
    vector.print str "matmul mismatches: "
    vector.print %bad : i32

    // Every element is (i + 1) + 2 (i + 1) = 3 (i + 1), for both threads.
    %o = memref.alloc() : memref<2x64xf32>
    func.call @shared_by_threads(%o) : (memref<2x64xf32>) -> ()
    %bad2 = scf.for %t = %c0 to %c2 step %c1 iter_args(%n = %zeroi) -> i32 {
      %row = scf.for %i = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %i1 = arith.addi %i, %c1 : index
        %i3 = arith.muli %i1, %c3 : index
        %ii = arith.index_cast %i3 : index to i32
        %want = arith.sitofp %ii : i32 to f32
        %got = memref.load %o[%t, %i] : memref<2x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %onei, %zeroi : i32
        %m2 = arith.addi %m, %inc : i32
        scf.yield %m2 : i32
      }
      scf.yield %row : i32
    }
    vector.print str "shared mismatches: "
    vector.print %bad2 : i32
    return
  }
}
