// Persistent scheduling: 3 programs compute the 4 x 3 tiles (16 x 16 each)
// of a 64x32 by 32x48 matmul. In @persistent each program walks the tile
// grid with mgpu.nd_loop (program p takes tiles p, p + 3, ... in row-major
// order); @tiled walks it in tiles of 2 x 1 (nd_loop's tiling); in @snake
// each walks 12 linear steps and maps them to tiles in planar-snake order
// (strips of 2 tile rows), so every tile is computed exactly once each way. Each output tile also
// records which program made it and at which local step, checked against
// JAX's order.
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [3], grid_names = ["p"]>
#whole_a = #mgpu.block_spec<shape = [64, 32], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#whole_b = #mgpu.block_spec<shape = [32, 48], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#whole_c = #mgpu.block_spec<shape = [64, 48], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#whole_w = #mgpu.block_spec<shape = [4, 3], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                        affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"],
       kind = #vector.kind<add>}

module {
  func.func @persistent(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>,
                        %init: tensor<64x48xf32>, %winit: tensor<4x3xf32>)
      -> (tensor<64x48xf32>, tensor<4x3xf32>) {
    %c, %who = mgpu.pallas_call grid [3]
        ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
        outs(%init, %winit : tensor<64x48xf32>, tensor<4x3xf32>)
        in_specs [#whole_a, #whole_b] out_specs [#whole_c, #whole_w] mesh #mesh {
    ^bb0(%ag: memref<64x32xf32>, %bg: memref<32x48xf32>,
         %cg: memref<64x48xf32>, %wg: memref<4x3xf32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<16x16xf32>
      %p = mgpu.axis_index "p"
      mgpu.nd_loop [%c4, %c3] collective_axes ["p"] {
      ^bb0(%i: index, %j: index, %step: index):
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
        %p100 = arith.muli %p, %c100 : index
        %w = arith.addi %p100, %step : index
        %wi = arith.index_cast %w : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        memref.store %wf, %wg[%i, %j] : memref<4x3xf32>
      }
    } -> tensor<64x48xf32>, tensor<4x3xf32>
    return %c, %who : tensor<64x48xf32>, tensor<4x3xf32>
  }

  func.func @tiled(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>,
                        %init: tensor<64x48xf32>, %winit: tensor<4x3xf32>)
      -> (tensor<64x48xf32>, tensor<4x3xf32>) {
    %c, %who = mgpu.pallas_call grid [3]
        ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
        outs(%init, %winit : tensor<64x48xf32>, tensor<4x3xf32>)
        in_specs [#whole_a, #whole_b] out_specs [#whole_c, #whole_w] mesh #mesh {
    ^bb0(%ag: memref<64x32xf32>, %bg: memref<32x48xf32>,
         %cg: memref<64x48xf32>, %wg: memref<4x3xf32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<16x16xf32>
      %p = mgpu.axis_index "p"
      // The grid walked in tiles of 2 x 1: steps 0..5 cover rows 0-1
      // column by column, 6..11 rows 2-3.
      mgpu.nd_loop [%c4, %c3] collective_axes ["p"] tiling [2, 1] {
      ^bb0(%i: index, %j: index, %step: index):
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
        %p100 = arith.muli %p, %c100 : index
        %w = arith.addi %p100, %step : index
        %wi = arith.index_cast %w : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        memref.store %wf, %wg[%i, %j] : memref<4x3xf32>
      }
    } -> tensor<64x48xf32>, tensor<4x3xf32>
    return %c, %who : tensor<64x48xf32>, tensor<4x3xf32>
  }

  func.func @snake(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>,
                        %init: tensor<64x48xf32>, %winit: tensor<4x3xf32>)
      -> (tensor<64x48xf32>, tensor<4x3xf32>) {
    %c, %who = mgpu.pallas_call grid [3]
        ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
        outs(%init, %winit : tensor<64x48xf32>, tensor<4x3xf32>)
        in_specs [#whole_a, #whole_b] out_specs [#whole_c, #whole_w] mesh #mesh {
    ^bb0(%ag: memref<64x32xf32>, %bg: memref<32x48xf32>,
         %cg: memref<64x48xf32>, %wg: memref<4x3xf32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<16x16xf32>
      %p = mgpu.axis_index "p"
      // Linear steps (program p: p, p + 3, p + 6, p + 9), each mapped to a
      // tile in planar-snake order.
      mgpu.nd_loop [%c12] collective_axes ["p"] {
      ^bb0(%lin: index, %step: index):
        %i, %j = mgpu.planar_snake %lin in [%c4, %c3] minor_dim 0 tile_width 2
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
        %p100 = arith.muli %p, %c100 : index
        %w = arith.addi %p100, %step : index
        %wi = arith.index_cast %w : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        memref.store %wf, %wg[%i, %j] : memref<4x3xf32>
      }
    } -> tensor<64x48xf32>, tensor<4x3xf32>
    return %c, %who : tensor<64x48xf32>, tensor<4x3xf32>
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

  func.func @print_who(%w: memref<4x3xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %row = memref.load %w[%i, %c0] : memref<4x3xf32>
      %r1 = memref.load %w[%i, %c1] : memref<4x3xf32>
      %c2 = arith.constant 2 : index
      %r2 = memref.load %w[%i, %c2] : memref<4x3xf32>
      %v0 = vector.broadcast %row : f32 to vector<3xf32>
      %v1 = vector.insert %r1, %v0 [1] : f32 into vector<3xf32>
      %v2 = vector.insert %r2, %v1 [2] : f32 into vector<3xf32>
      vector.print %v2 : vector<3xf32>
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
    %at = bufferization.to_tensor %a restrict : memref<64x32xf32> to tensor<64x32xf32>
    %bt = bufferization.to_tensor %b restrict : memref<32x48xf32> to tensor<32x48xf32>
    %garbage = arith.constant 777.0 : f32
    %e = tensor.empty() : tensor<64x48xf32>
    %init = linalg.fill ins(%garbage : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
    %we = tensor.empty() : tensor<4x3xf32>
    %winit = linalg.fill ins(%garbage : f32) outs(%we : tensor<4x3xf32>) -> tensor<4x3xf32>

    %ct, %wt = func.call @persistent(%at, %bt, %init, %winit)
        : (tensor<64x32xf32>, tensor<32x48xf32>, tensor<64x48xf32>, tensor<4x3xf32>)
        -> (tensor<64x48xf32>, tensor<4x3xf32>)
    %c = bufferization.to_buffer %ct read_only : tensor<64x48xf32> to memref<64x48xf32>
    %w = bufferization.to_buffer %wt read_only : tensor<4x3xf32> to memref<4x3xf32>
    %bad = func.call @check(%a, %b, %c) : (memref<64x32xf32>, memref<32x48xf32>, memref<64x48xf32>) -> i32
    // CHECK: nd_loop mismatches: 0
    vector.print str "nd_loop mismatches: "
    vector.print %bad : i32
    // Tile (i, j) is linear step 3i + j: program (3i + j) mod 3 = j at its
    // local step i.
    // CHECK-NEXT: ( 0, 100, 200 )
    // CHECK-NEXT: ( 1, 101, 201 )
    // CHECK-NEXT: ( 2, 102, 202 )
    // CHECK-NEXT: ( 3, 103, 203 )
    func.call @print_who(%w) : (memref<4x3xf32>) -> ()

    %st, %swt = func.call @snake(%at, %bt, %init, %winit)
        : (tensor<64x32xf32>, tensor<32x48xf32>, tensor<64x48xf32>, tensor<4x3xf32>)
        -> (tensor<64x48xf32>, tensor<4x3xf32>)
    %s = bufferization.to_buffer %st read_only : tensor<64x48xf32> to memref<64x48xf32>
    %sw = bufferization.to_buffer %swt read_only : tensor<4x3xf32> to memref<4x3xf32>
    %sbad = func.call @check(%a, %b, %s) : (memref<64x32xf32>, memref<32x48xf32>, memref<64x48xf32>) -> i32
    // CHECK: snake mismatches: 0
    vector.print str "snake mismatches: "
    vector.print %sbad : i32
    // Planar snake over (4, 3), strips of 2 rows: linear steps 0..5 walk
    // rows 0-1 column by column forward, 6..11 rows 2-3 backward:
    //   (  0  2  4 )
    //   (  1  3  5 )
    //   ( 10  8  6 )
    //   ( 11  9  7 )
    // and step L is program L mod 3's local step L / 3.
    // CHECK-NEXT: ( 0, 200, 101 )
    // CHECK-NEXT: ( 100, 1, 201 )
    // CHECK-NEXT: ( 103, 202, 2 )
    // CHECK-NEXT: ( 203, 3, 102 )
    func.call @print_who(%sw) : (memref<4x3xf32>) -> ()

    %tt, %twt = func.call @tiled(%at, %bt, %init, %winit)
        : (tensor<64x32xf32>, tensor<32x48xf32>, tensor<64x48xf32>, tensor<4x3xf32>)
        -> (tensor<64x48xf32>, tensor<4x3xf32>)
    %t = bufferization.to_buffer %tt read_only : tensor<64x48xf32> to memref<64x48xf32>
    %tw = bufferization.to_buffer %twt read_only : tensor<4x3xf32> to memref<4x3xf32>
    %tbad = func.call @check(%a, %b, %t) : (memref<64x32xf32>, memref<32x48xf32>, memref<64x48xf32>) -> i32
    // CHECK: tiled mismatches: 0
    vector.print str "tiled mismatches: "
    vector.print %tbad : i32
    // Tiling [2, 1]: steps 0..5 are rows 0-1 column by column, 6..11 rows
    // 2-3 (the same strips as the snake, all forward).
    // CHECK-NEXT: ( 0, 200, 101 )
    // CHECK-NEXT: ( 100, 1, 201 )
    // CHECK-NEXT: ( 2, 202, 103 )
    // CHECK-NEXT: ( 102, 3, 203 )
    func.call @print_who(%tw) : (memref<4x3xf32>) -> ()
    memref.dealloc %a : memref<64x32xf32>
    memref.dealloc %b : memref<32x48xf32>
    return
  }
}
