// Horizontal fusion with mpmd_map: four unrelated element-wise kernels, each
// on its own mesh (a 1-D grid, a 2-D grid, Pallas threads, clusters), in one
// launch. Every region sees every ref (all in GMEM) and touches only its own.
// RUN: %run_on_backends %s --match-full-lines

#m0 = #mgpu.mesh<grid = [4], grid_names = ["a"]>
#m1 = #mgpu.mesh<grid = [2, 2], grid_names = ["bi", "bj"]>
#m2 = #mgpu.mesh<grid = [1], grid_names = ["c"], num_threads = 2, thread_name = "ct">
#m3 = #mgpu.mesh<grid = [2], grid_names = ["d"], cluster = [2], cluster_names = ["dc"]>

module {
  // o0 = x0 + 1 (4 programs of 128), o1 = 2 * x1 (2x2 programs of 32x32
  // tiles), o2 = -x2 (2 threads of 128), o3 = max(x3, 0) (2 clusters of 2
  // CTAs, 128 each).
  func.func @fused(%x0: memref<512xf32>, %x1: memref<64x64xf32>,
                   %x2: memref<256xf32>, %x3: memref<512xf32>,
                   %o0: memref<512xf32>, %o1: memref<64x64xf32>,
                   %o2: memref<256xf32>, %o3: memref<512xf32>) {
    mgpu.mpmd_map meshes [#m0, #m1, #m2, #m3]
        ins(%x0, %x1, %x2, %x3 : memref<512xf32>, memref<64x64xf32>, memref<256xf32>, memref<512xf32>)
        outs(%o0, %o1, %o2, %o3 : memref<512xf32>, memref<64x64xf32>, memref<256xf32>, memref<512xf32>) {
    ^bb0(%a0: memref<512xf32>, %a1: memref<64x64xf32>, %a2: memref<256xf32>, %a3: memref<512xf32>,
         %r0: memref<512xf32>, %r1: memref<64x64xf32>, %r2: memref<256xf32>, %r3: memref<512xf32>):
      %a = mgpu.axis_index "a"
      %c128 = arith.constant 128 : index
      %off = arith.muli %a, %c128 : index
      %v = vector.load %a0[%off] : memref<512xf32>, vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %r = arith.addf %v, %one : vector<128xf32>
      vector.store %r, %r0[%off] : memref<512xf32>, vector<128xf32>
    }, {
    ^bb0(%a0: memref<512xf32>, %a1: memref<64x64xf32>, %a2: memref<256xf32>, %a3: memref<512xf32>,
         %r0: memref<512xf32>, %r1: memref<64x64xf32>, %r2: memref<256xf32>, %r3: memref<512xf32>):
      %i = mgpu.program_id 0
      %j = mgpu.program_id 1
      %c32 = arith.constant 32 : index
      %row = arith.muli %i, %c32 : index
      %col = arith.muli %j, %c32 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %a1[%row, %col], %pad {in_bounds = [true, true]}
          : memref<64x64xf32>, vector<32x32xf32>
      %two = arith.constant dense<2.0> : vector<32x32xf32>
      %r = arith.mulf %v, %two : vector<32x32xf32>
      vector.transfer_write %r, %r1[%row, %col] {in_bounds = [true, true]}
          : vector<32x32xf32>, memref<64x64xf32>
    }, {
    ^bb0(%a0: memref<512xf32>, %a1: memref<64x64xf32>, %a2: memref<256xf32>, %a3: memref<512xf32>,
         %r0: memref<512xf32>, %r1: memref<64x64xf32>, %r2: memref<256xf32>, %r3: memref<512xf32>):
      %t = mgpu.axis_index "ct"
      %c128 = arith.constant 128 : index
      %off = arith.muli %t, %c128 : index
      %v = vector.load %a2[%off] : memref<256xf32>, vector<128xf32>
      %r = arith.negf %v : vector<128xf32>
      vector.store %r, %r2[%off] : memref<256xf32>, vector<128xf32>
    }, {
    ^bb0(%a0: memref<512xf32>, %a1: memref<64x64xf32>, %a2: memref<256xf32>, %a3: memref<512xf32>,
         %r0: memref<512xf32>, %r1: memref<64x64xf32>, %r2: memref<256xf32>, %r3: memref<512xf32>):
      %d = mgpu.axis_index "d"
      %dc = mgpu.axis_index "dc"
      %size = mgpu.axis_size "dc"
      %first = arith.muli %d, %size : index
      %blk = arith.addi %first, %dc : index
      %c128 = arith.constant 128 : index
      %off = arith.muli %blk, %c128 : index
      %v = vector.load %a3[%off] : memref<512xf32>, vector<128xf32>
      %zero = arith.constant dense<0.0> : vector<128xf32>
      %r = arith.maximumf %v, %zero : vector<128xf32>
      vector.store %r, %r3[%off] : memref<512xf32>, vector<128xf32>
    }
    return
  }

  // Fills a 1-D array with f(i) = i - offset.
  func.func @fill_1d(%m: memref<?xf32>, %offset: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %m, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.subf %f, %offset : f32
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0 : i32
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %f64 = arith.constant 64.0 : f32
    %f300 = arith.constant 300.0 : f32
    %garbage = arith.constant -777.0 : f32

    // x0[i] = i, x1[r][c] = 64 * r + c, x2[i] = i, x3[i] = i - 300.
    %x0 = memref.alloc() : memref<512xf32>
    %x1 = memref.alloc() : memref<64x64xf32>
    %x2 = memref.alloc() : memref<256xf32>
    %x3 = memref.alloc() : memref<512xf32>
    %x0d = memref.cast %x0 : memref<512xf32> to memref<?xf32>
    func.call @fill_1d(%x0d, %f0) : (memref<?xf32>, f32) -> ()
    %x2d = memref.cast %x2 : memref<256xf32> to memref<?xf32>
    func.call @fill_1d(%x2d, %f0) : (memref<?xf32>, f32) -> ()
    %x3d = memref.cast %x3 : memref<512xf32> to memref<?xf32>
    func.call @fill_1d(%x3d, %f300) : (memref<?xf32>, f32) -> ()
    scf.for %r = %c0 to %c64 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %ri = arith.index_cast %r : index to i32
        %ci = arith.index_cast %c : index to i32
        %rf = arith.sitofp %ri : i32 to f32
        %cf = arith.sitofp %ci : i32 to f32
        %r64 = arith.mulf %rf, %f64 : f32
        %v = arith.addf %r64, %cf : f32
        memref.store %v, %x1[%r, %c] : memref<64x64xf32>
      }
    }
    %o0 = memref.alloc() : memref<512xf32>
    %o1 = memref.alloc() : memref<64x64xf32>
    %o2 = memref.alloc() : memref<256xf32>
    %o3 = memref.alloc() : memref<512xf32>
    linalg.fill ins(%garbage : f32) outs(%o0 : memref<512xf32>)
    linalg.fill ins(%garbage : f32) outs(%o1 : memref<64x64xf32>)
    linalg.fill ins(%garbage : f32) outs(%o2 : memref<256xf32>)
    linalg.fill ins(%garbage : f32) outs(%o3 : memref<512xf32>)
    func.call @fused(%x0, %x1, %x2, %x3, %o0, %o1, %o2, %o3)
        : (memref<512xf32>, memref<64x64xf32>, memref<256xf32>, memref<512xf32>,
           memref<512xf32>, memref<64x64xf32>, memref<256xf32>, memref<512xf32>) -> ()

    // The references, with scalar loops, one count per kernel.
    %bad0 = scf.for %i = %c0 to %c512 step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x0[%i] : memref<512xf32>
      %want = arith.addf %v, %f1 : f32
      %got = memref.load %o0[%i] : memref<512xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    %bad1 = scf.for %r = %c0 to %c64 step %c1 iter_args(%count = %zero) -> i32 {
      %row_bad = scf.for %c = %c0 to %c64 step %c1 iter_args(%cnt = %count) -> i32 {
        %v = memref.load %x1[%r, %c] : memref<64x64xf32>
        %want = arith.mulf %v, %f2 : f32
        %got = memref.load %o1[%r, %c] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %cnt, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row_bad : i32
    }
    %bad2 = scf.for %i = %c0 to %c256 step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x2[%i] : memref<256xf32>
      %want = arith.subf %f0, %v : f32
      %got = memref.load %o2[%i] : memref<256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    %bad3 = scf.for %i = %c0 to %c512 step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x3[%i] : memref<512xf32>
      %pos = arith.cmpf ogt, %v, %f0 : f32
      %want = arith.select %pos, %v, %f0 : f32
      %got = memref.load %o3[%i] : memref<512xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: kernel 0 mismatches: 0
    // CHECK-NEXT: kernel 1 mismatches: 0
    // CHECK-NEXT: kernel 2 mismatches: 0
    // CHECK-NEXT: kernel 3 mismatches: 0
    vector.print str "kernel 0 mismatches: "
    vector.print %bad0 : i32
    vector.print str "kernel 1 mismatches: "
    vector.print %bad1 : i32
    vector.print str "kernel 2 mismatches: "
    vector.print %bad2 : i32
    vector.print str "kernel 3 mismatches: "
    vector.print %bad3 : i32

    // o0[511] = 512; o1[63][63] = 2 * 4095 = 8190 (program (1, 1));
    // o1[40][3] = 2 * 2563 = 5126 (program (1, 0)); o2[200] = -200 (thread 1);
    // o3[100] = max(-200, 0) = 0 (cluster 0, CTA 0); o3[500] = 200
    // (cluster 1, CTA 1).
    // CHECK-NEXT: 512
    // CHECK-NEXT: 8190
    // CHECK-NEXT: 5126
    // CHECK-NEXT: -200
    // CHECK-NEXT: 0
    // CHECK-NEXT: 200
    %c3 = arith.constant 3 : index
    %c40 = arith.constant 40 : index
    %c63 = arith.constant 63 : index
    %c100 = arith.constant 100 : index
    %c200 = arith.constant 200 : index
    %c500 = arith.constant 500 : index
    %c511 = arith.constant 511 : index
    %e0 = memref.load %o0[%c511] : memref<512xf32>
    vector.print %e0 : f32
    %e1 = memref.load %o1[%c63, %c63] : memref<64x64xf32>
    vector.print %e1 : f32
    %e2 = memref.load %o1[%c40, %c3] : memref<64x64xf32>
    vector.print %e2 : f32
    %e3 = memref.load %o2[%c200] : memref<256xf32>
    vector.print %e3 : f32
    %e4 = memref.load %o3[%c100] : memref<512xf32>
    vector.print %e4 : f32
    %e5 = memref.load %o3[%c500] : memref<512xf32>
    vector.print %e5 : f32

    memref.dealloc %x0 : memref<512xf32>
    memref.dealloc %x1 : memref<64x64xf32>
    memref.dealloc %x2 : memref<256xf32>
    memref.dealloc %x3 : memref<512xf32>
    memref.dealloc %o0 : memref<512xf32>
    memref.dealloc %o1 : memref<64x64xf32>
    memref.dealloc %o2 : memref<256xf32>
    memref.dealloc %o3 : memref<512xf32>
    return
  }
}
