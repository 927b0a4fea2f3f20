// Dynamic scheduling on sm_90: 3 programs take the 4 x 3 tiles (16 x 16)
// of a 64x32 by 32x48 matmul from a global counter
// (mgpu.dynamic_scheduling_loop): each program first takes the tile of its
// own index, then the next one an atomic add on the counter hands out.
// Which program takes which tile depends on timing; the numbers do not:
// every tile is computed exactly once (each adds 1 to its visit count),
// and the programs' local steps add up to the 12 tiles: each program counts
// them in the loop's carry (JAX's init_carry), adding one only where the
// count equals the local step, and stores what the loop returns.
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [3], grid_names = ["p"]>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                        affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"],
       kind = #vector.kind<add>}

module {
  func.func @dynamic(%a: memref<64x32xf32>, %b: memref<32x48xf32>,
                     %c: memref<64x48xf32>, %visits: memref<4x3xi32>,
                     %steps: memref<3xi32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>)
        outs(%c, %visits, %steps : memref<64x48xf32>, memref<4x3xi32>, memref<3xi32>)
        scratch [memref<1xi32>] {
    ^bb0(%ag: memref<64x32xf32>, %bg: memref<32x48xf32>, %cg: memref<64x48xf32>,
         %vg: memref<4x3xi32>, %sg: memref<3xi32>, %count: memref<1xi32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %one = arith.constant 1 : i32
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<16x16xf32>
      %p = mgpu.axis_index "p"
      %none = arith.constant 0 : i32
      %taken = mgpu.dynamic_scheduling_loop [%c4, %c3] collective_axes ["p"]
          counter %count[%c0] : memref<1xi32> init_carry(%none : i32) -> i32 {
      ^bb0(%i: index, %j: index, %step: index, %ran: i32):
        %row = arith.muli %i, %c16 : index
        %col = arith.muli %j, %c16 : index
        %va = vector.transfer_read %ag[%row, %c0], %pad {in_bounds = [true, true]}
            : memref<64x32xf32>, vector<16x32xf32>
        %vb = vector.transfer_read %bg[%c0, %col], %pad {in_bounds = [true, true]}
            : memref<32x48xf32>, vector<32x16xf32>
        %r = vector.contract #mm %va, %vb, %zero
            : vector<16x32xf32>, vector<32x16xf32> into vector<16x16xf32>
        vector.transfer_write %r, %cg[%row, %col] {in_bounds = [true, true]}
            : vector<16x16xf32>, memref<64x48xf32>
        %old = memref.atomic_rmw addi %one, %vg[%i, %j] : (i32, memref<4x3xi32>) -> i32
        // The carry counts this program's steps; it must equal step + 1.
        %si = arith.index_cast %step : index to i32
        %ran_before = arith.cmpi eq, %ran, %si : i32
        %ran_one = arith.extui %ran_before : i1 to i32
        %ran_next = arith.addi %ran, %ran_one : i32
        mgpu.yield %ran_next : i32
      }
      memref.store %taken, %sg[%p] : memref<3xi32>
    }
    return
  }

  // a[m][k] = (m + 2k) mod 5 - 2 and b[k][n] = (3k + n) mod 7 - 3: small
  // integers, so every sum is exact in f32.
  func.func @small_int(%x: index, %y: index, %mul: index, %mod: index,
                       %shift: index) -> f32 {
    %t = arith.muli %y, %mul : index
    %s = arith.addi %x, %t : index
    %m = arith.remui %s, %mod : index
    %d = arith.subi %m, %shift : index
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    return %f : f32
  }

  // Mismatches of c against a scalar reference.
  func.func @check(%a: memref<64x32xf32>, %b: memref<32x48xf32>,
                   %c: memref<64x48xf32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %M = arith.constant 64 : index
    %N = arith.constant 48 : index
    %K = arith.constant 32 : index
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %bad = scf.for %m = %c0 to %M step %c1 iter_args(%count = %zero) -> i32 {
      %row_bad = scf.for %n = %c0 to %N step %c1 iter_args(%cnt = %count) -> i32 {
        %want = scf.for %k = %c0 to %K step %c1 iter_args(%s = %fzero) -> f32 {
          %av = memref.load %a[%m, %k] : memref<64x32xf32>
          %bv = memref.load %b[%k, %n] : memref<32x48xf32>
          %p = arith.mulf %av, %bv : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %c[%m, %n] : memref<64x48xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %cnt, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row_bad : i32
    }
    return %bad : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %M = arith.constant 64 : index
    %N = arith.constant 48 : index
    %K = arith.constant 32 : index
    %a = memref.alloc() : memref<64x32xf32>
    %b = memref.alloc() : memref<32x48xf32>
    scf.for %m = %c0 to %M step %c1 {
      scf.for %k = %c0 to %K step %c1 {
        %v = func.call @small_int(%m, %k, %c2, %c5, %c2)
            : (index, index, index, index, index) -> f32
        memref.store %v, %a[%m, %k] : memref<64x32xf32>
      }
    }
    scf.for %k = %c0 to %K step %c1 {
      scf.for %n = %c0 to %N step %c1 {
        %v = func.call @small_int(%n, %k, %c3, %c7, %c3)
            : (index, index, index, index, index) -> f32
        memref.store %v, %b[%k, %n] : memref<32x48xf32>
      }
    }
    %c = memref.alloc() : memref<64x48xf32>
    %garbage = arith.constant 777.0 : f32
    linalg.fill ins(%garbage : f32) outs(%c : memref<64x48xf32>)
    %zi = arith.constant 0 : i32
    %visits = memref.alloc() : memref<4x3xi32>
    linalg.fill ins(%zi : i32) outs(%visits : memref<4x3xi32>)
    %steps = memref.alloc() : memref<3xi32>
    linalg.fill ins(%zi : i32) outs(%steps : memref<3xi32>)
    func.call @dynamic(%a, %b, %c, %visits, %steps)
        : (memref<64x32xf32>, memref<32x48xf32>, memref<64x48xf32>,
           memref<4x3xi32>, memref<3xi32>) -> ()
    %bad = func.call @check(%a, %b, %c) : (memref<64x32xf32>, memref<32x48xf32>, memref<64x48xf32>) -> i32
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // Tiles not visited exactly once.
    %off = scf.for %i = %c0 to %c4 step %c1 iter_args(%n0 = %zi) -> i32 {
      %n1 = scf.for %j = %c0 to %c3 step %c1 iter_args(%n2 = %n0) -> i32 {
        %v = memref.load %visits[%i, %j] : memref<4x3xi32>
        %one_i = arith.constant 1 : i32
        %ne = arith.cmpi ne, %v, %one_i : i32
        %inc = arith.extui %ne : i1 to i32
        %n3 = arith.addi %n2, %inc : i32
        scf.yield %n3 : i32
      }
      scf.yield %n1 : i32
    }
    // CHECK-NEXT: visits not once: 0
    vector.print str "visits not once: "
    vector.print %off : i32
    // The programs' steps, summed.
    %total = scf.for %q = %c0 to %c3 step %c1 iter_args(%t = %zi) -> i32 {
      %s = memref.load %steps[%q] : memref<3xi32>
      %t2 = arith.addi %t, %s : i32
      scf.yield %t2 : i32
    }
    // CHECK-NEXT: steps: 12
    vector.print str "steps: "
    vector.print %total : i32
    memref.dealloc %a : memref<64x32xf32>
    memref.dealloc %b : memref<32x48xf32>
    memref.dealloc %c : memref<64x48xf32>
    memref.dealloc %visits : memref<4x3xi32>
    memref.dealloc %steps : memref<3xi32>
    return
  }
}
