// JAX's test_program_id_in_block_spec with the blocks moved by a hand
// pipeline (plgpu.emit_pipeline) instead of the grid: in one program, an
// emit_pipeline over 3 steps whose index map (k) -> (k, k) puts the 2x128
// blocks of steps 1 and 2 wholly past the 2x128 array, two buffers deep;
// step 1's block starts at the array's end, step 2's past it (the case
// that stopped interpret mode with 'offset 0 is out-of-bounds'). As with
// TMA, those steps read zeros and their writes are dropped, so o == x. A second
// pipeline moves 2x64 blocks over a 2x160 array in 3 steps: step 2's block
// is partly past the array (32 real columns), so it reads zeros there and
// writes back only those 32 columns: p == y + 1. Accesses outside a block
// stay errors (bounds_checks.mlir, clipped-pipelined).
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#diag = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(k) -> (k, k)>>
#cols = #mgpu.block_spec<shape = [2, 64], index_map = affine_map<(k) -> (0, k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>

module {
  func.func @kernel(%x: memref<2x128xi32>, %o: memref<2x128xi32>,
                    %y: memref<2x160xi32>, %p: memref<2x160xi32>,
                    %counts: memref<3xi32>) {
    mgpu.mpmd_map meshes [#mesh]
        ins(%x, %y : memref<2x128xi32>, memref<2x160xi32>)
        outs(%o, %p, %counts : memref<2x128xi32>, memref<2x160xi32>, memref<3xi32>) {
    ^bb0(%xa: memref<2x128xi32>, %ya: memref<2x160xi32>, %oa: memref<2x128xi32>,
         %pa: memref<2x160xi32>, %ca: memref<3xi32>):
      // o_ref[...] = x_ref[...]
      mgpu.emit_pipeline grid [3]
          ins(%xa : memref<2x128xi32>) outs(%oa : memref<2x128xi32>)
          in_specs [#diag] out_specs [#diag] params #two {
      ^bb0(%k: index, %xs: memref<2x128xi32, #gpu.address_space<workgroup>>,
           %os: memref<2x128xi32, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0 : i32
        %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
            : memref<2x128xi32, #gpu.address_space<workgroup>>, vector<2x128xi32>
        vector.transfer_write %v, %os[%c0, %c0] {in_bounds = [true, true]}
            : vector<2x128xi32>, memref<2x128xi32, #gpu.address_space<workgroup>>
      }
      // p_ref[...] = y_ref[...] + 1; each step counts the nonzero elements
      // of its input block (the padding reads as zero).
      mgpu.emit_pipeline grid [3]
          ins(%ya : memref<2x160xi32>) outs(%pa : memref<2x160xi32>)
          in_specs [#cols] out_specs [#cols] params #two {
      ^bb0(%k: index, %ys: memref<2x64xi32, #gpu.address_space<workgroup>>,
           %ps: memref<2x64xi32, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0 : i32
        %ones = arith.constant dense<1> : vector<2x64xi32>
        %zeros = arith.constant dense<0> : vector<2x64xi32>
        %v = vector.transfer_read %ys[%c0, %c0], %pad {in_bounds = [true, true]}
            : memref<2x64xi32, #gpu.address_space<workgroup>>, vector<2x64xi32>
        %r = arith.addi %v, %ones : vector<2x64xi32>
        vector.transfer_write %r, %ps[%c0, %c0] {in_bounds = [true, true]}
            : vector<2x64xi32>, memref<2x64xi32, #gpu.address_space<workgroup>>
        %nz = arith.cmpi ne, %v, %zeros : vector<2x64xi32>
        %nzi = arith.select %nz, %ones, %zeros : vector<2x64xi1>, vector<2x64xi32>
        %n = vector.multi_reduction <add>, %nzi, %pad [0, 1] : vector<2x64xi32> to i32
        memref.store %n, %ca[%k] : memref<3xi32>
      }
    }
    return
  }

  // The number of elements with a[r][c] != b[r][c] + d.
  func.func @count(%a: memref<2x?xi32>, %b: memref<2x?xi32>, %d: i32) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = memref.dim %a, %c1 : memref<2x?xi32>
    %bad = scf.for %r = %c0 to %c2 step %c1 iter_args(%s = %c0) -> index {
      %row = scf.for %c = %c0 to %n step %c1 iter_args(%t = %s) -> index {
        %got = memref.load %a[%r, %c] : memref<2x?xi32>
        %b0 = memref.load %b[%r, %c] : memref<2x?xi32>
        %want = arith.addi %b0, %d : i32
        %ne = arith.cmpi ne, %got, %want : i32
        %inc = arith.select %ne, %c1, %c0 : index
        %next = arith.addi %t, %inc : index
        scf.yield %next : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c160 = arith.constant 160 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    // x = jnp.arange(2 * 128).reshape([2, 128]); y likewise, 2x160, from 1.
    %x = memref.alloc() : memref<2x128xi32>
    %y = memref.alloc() : memref<2x160xi32>
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c128 step %c1 {
        %row = arith.muli %r, %c128 : index
        %flat = arith.addi %row, %c : index
        %v = arith.index_cast %flat : index to i32
        memref.store %v, %x[%r, %c] : memref<2x128xi32>
      }
      scf.for %c = %c0 to %c160 step %c1 {
        %row = arith.muli %r, %c160 : index
        %flat = arith.addi %row, %c : index
        %v = arith.index_cast %flat : index to i32
        %w = arith.addi %v, %one : i32
        memref.store %w, %y[%r, %c] : memref<2x160xi32>
      }
    }
    %o = memref.alloc() : memref<2x128xi32>
    %p = memref.alloc() : memref<2x160xi32>
    %counts = memref.alloc() : memref<3xi32>
    func.call @kernel(%x, %o, %y, %p, %counts)
        : (memref<2x128xi32>, memref<2x128xi32>, memref<2x160xi32>,
           memref<2x160xi32>, memref<3xi32>) -> ()
    %xd = memref.cast %x : memref<2x128xi32> to memref<2x?xi32>
    %od = memref.cast %o : memref<2x128xi32> to memref<2x?xi32>
    %yd = memref.cast %y : memref<2x160xi32> to memref<2x?xi32>
    %pd = memref.cast %p : memref<2x160xi32> to memref<2x?xi32>
    // CHECK: mismatches: 0
    // CHECK-NEXT: partly past the array, mismatches: 0
    %bad = func.call @count(%od, %xd, %zero) : (memref<2x?xi32>, memref<2x?xi32>, i32) -> index
    vector.print str "mismatches: "
    vector.print %bad : index
    %bad_p = func.call @count(%pd, %yd, %one) : (memref<2x?xi32>, memref<2x?xi32>, i32) -> index
    vector.print str "partly past the array, mismatches: "
    vector.print %bad_p : index
    // Nonzero elements each step read: 128 and 128 whole, 64 of step 2's
    // 128 (the rest is padding).
    // CHECK-NEXT: ( 128, 128, 64 )
    %cv = vector.load %counts[%c0] : memref<3xi32>, vector<3xi32>
    vector.print %cv : vector<3xi32>
    memref.dealloc %x : memref<2x128xi32>
    memref.dealloc %y : memref<2x160xi32>
    memref.dealloc %o : memref<2x128xi32>
    memref.dealloc %p : memref<2x160xi32>
    memref.dealloc %counts : memref<3xi32>
    return
  }
}
