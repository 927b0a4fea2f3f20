// A block index map that reaches outside a program's view of its input
// ((k) -> (-1, k) in an emit_pipeline over the program's 16 rows, a
// memref.subview): the window is clipped at the bounds of the array the view
// is of, as TMA does through the array's tensor map and as JAX's sliced refs
// behave. Program i > 0 reads the rows of program i - 1; program 0's window
// lies before the array and reads zeros. Interpret mode clipped at the view
// and read zeros everywhere while the emulator read the neighbours: found by
// utils/fuzz.py (a 20,000-mutant campaign, seed 26).
// RUN: %run_on_backends %s --match-full-lines

// CHECK: mismatches: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 14072
#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (-1, k)>>
#sums = #mgpu.block_spec<shape = [16], index_map = affine_map<(k) -> (0)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>

module {
  func.func @row_sums(%x: memref<64x256xf32>, %o: memref<64xf32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%x : memref<64x256xf32>) outs(%o : memref<64xf32>) {
    ^bb0(%xa: memref<64x256xf32>, %oa: memref<64xf32>):
      %c16 = arith.constant 16 : index
      %i = mgpu.program_id 0
      %row = arith.muli %i, %c16 : index
      %rows = memref.subview %xa[%row, 0] [16, 256] [1, 1]
          : memref<64x256xf32> to memref<16x256xf32, strided<[256, 1], offset: ?>>
      %outs = memref.subview %oa[%row] [16] [1]
          : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
      mgpu.emit_pipeline grid [4]
          ins(%rows : memref<16x256xf32, strided<[256, 1], offset: ?>>)
          outs(%outs : memref<16xf32, strided<[1], offset: ?>>)
          in_specs [#cols] out_specs [#sums] params #two {
      ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>,
           %acc: memref<16xf32, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %pad = arith.constant 0.0 : f32
        %first = arith.cmpi eq, %k, %c0 : index
        scf.if %first {
          %zero = arith.constant dense<0.0> : vector<16xf32>
          vector.transfer_write %zero, %acc[%c0] {in_bounds = [true]}
              : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
        }
        %partial = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]}
            : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
        %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
            : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
        %sum = vector.multi_reduction <add>, %v, %partial [1]
            : vector<16x64xf32> to vector<16xf32>
        vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]}
            : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 64 : index
    %cols = arith.constant 256 : index
    %zero = arith.constant 0 : i32
    %sixteenth = arith.constant 0.0625 : f32
    %x = memref.alloc() : memref<64x256xf32>
    %o = memref.alloc() : memref<64xf32>
    scf.for %r = %c0 to %rows step %c1 {
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      scf.for %c = %c0 to %cols step %c1 {
        %ci = arith.index_cast %c : index to i32
        %cf = arith.sitofp %ci : i32 to f32
        %cs = arith.mulf %cf, %sixteenth : f32
        %v = arith.addf %rf, %cs : f32
        memref.store %v, %x[%r, %c] : memref<64x256xf32>
      }
    }
    func.call @row_sums(%x, %o) : (memref<64x256xf32>, memref<64xf32>) -> ()
    %fzero = arith.constant 0.0 : f32
    %c16 = arith.constant 16 : index
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%count = %zero) -> i32 {
      // Row r reads row r - 16 of x: the block before its program's; the
      // first program's block lies before the array and reads zeros.
      %before = arith.cmpi ult, %r, %c16 : index
      %src = arith.subi %r, %c16 : index
      %sum = scf.for %c = %c0 to %cols step %c1 iter_args(%s = %fzero) -> f32 {
        %safe = arith.select %before, %c0, %src : index
        %v = memref.load %x[%safe, %c] : memref<64x256xf32>
        %n = arith.addf %s, %v : f32
        scf.yield %n : f32
      }
      %want = arith.select %before, %fzero, %sum : f32
      %got = memref.load %o[%r] : memref<64xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "mismatches: "
    vector.print %bad : i32
    %o0 = memref.load %o[%c0] : memref<64xf32>
    vector.print %o0 : f32
    %c63 = arith.constant 63 : index
    %o63 = memref.load %o[%c63] : memref<64xf32>
    vector.print %o63 : f32
    memref.dealloc %x : memref<64x256xf32>
    memref.dealloc %o : memref<64xf32>
    return
  }
}
