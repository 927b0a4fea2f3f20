// JAX's test_nd_loop_with_carry (tests/pallas/mosaic_gpu_test.py at
// cec06d1): 132 programs walk the grid (sm_steps, 4, 33) with
// plgpu.nd_loop(..., collective_axes="sm", init_carry=0); each step writes
// its flat index into row [flat / 132, program] of the output and returns
// carry + 1, and each program stores the loop's result, the number of steps
// it ran. As JAX: sm_steps static (3) or read from an input ref (2).
// Changed from JAX: the output is one (3, 132, 128) array for both runs,
// and @uneven adds a grid of 130 points with init_carry = 7, where the
// last two programs run no step and get the initial carry back.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a %t.0.ptx -o %t.0.cubin
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a %t.1.ptx -o %t.1.cubin
// REQUIRES: ptxas

#mesh = #mgpu.mesh<grid = [132], grid_names = ["sm"]>
#count = #mgpu.block_spec<shape = [1], index_map = affine_map<(p) -> (0)>, memory_space = gmem>
#rows = #mgpu.block_spec<shape = [3, 132, 128], index_map = affine_map<(p) -> (0, 0, 0)>, memory_space = gmem>
#steps = #mgpu.block_spec<shape = [132], index_map = affine_map<(p) -> (0)>, memory_space = gmem>

!rows = memref<3x132x128xi32>

module {
  // sm_steps_val = sm_steps (3) in @static, sm_steps_ref[0] in @dynamic.
  func.func @static(%sm_steps: memref<1xi32>, %o: !rows, %steps: memref<132xi32>) {
    mgpu.pallas_call grid [132] ins(%sm_steps : memref<1xi32>)
        outs(%o, %steps : !rows, memref<132xi32>)
        in_specs [#count] out_specs [#rows, #steps] mesh #mesh {
    ^bb0(%sm_steps_ref: memref<1xi32>, %o_ref: !rows, %steps_ref: memref<132xi32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c33 = arith.constant 33 : index
      %c132 = arith.constant 132 : i32
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %sm_steps_val = arith.constant 3 : index
      %p = mgpu.axis_index "sm"
      %ran = mgpu.nd_loop [%sm_steps_val, %c4, %c33] collective_axes ["sm"]
          init_carry(%zero : i32) -> i32 {
      ^bb0(%i: index, %j: index, %k: index, %local: index, %carry: i32):
        // flat_idx = (i * 4 + j) * 33 + k (JAX clips each index to its
        // dimension first, which changes nothing here).
        %i4 = arith.muli %i, %c4 : index
        %ij = arith.addi %i4, %j : index
        %ij33 = arith.muli %ij, %c33 : index
        %flat = arith.addi %ij33, %k : index
        %flat_i32 = arith.index_cast %flat : index to i32
        %sm_step = arith.divsi %flat_i32, %c132 : i32
        %row = arith.index_cast %sm_step : i32 to index
        %v = vector.broadcast %flat_i32 : i32 to vector<128xi32>
        vector.transfer_write %v, %o_ref[%row, %p, %c0] {in_bounds = [true]}
            : vector<128xi32>, !rows
        %next = arith.addi %carry, %one : i32
        mgpu.yield %next : i32
      }
      memref.store %ran, %steps_ref[%p] : memref<132xi32>
    }
    return
  }

  func.func @dynamic(%sm_steps: memref<1xi32>, %o: !rows, %steps: memref<132xi32>) {
    mgpu.pallas_call grid [132] ins(%sm_steps : memref<1xi32>)
        outs(%o, %steps : !rows, memref<132xi32>)
        in_specs [#count] out_specs [#rows, #steps] mesh #mesh {
    ^bb0(%sm_steps_ref: memref<1xi32>, %o_ref: !rows, %steps_ref: memref<132xi32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c33 = arith.constant 33 : index
      %c132 = arith.constant 132 : i32
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %read = memref.load %sm_steps_ref[%c0] : memref<1xi32>
      %sm_steps_val = arith.index_cast %read : i32 to index
      %p = mgpu.axis_index "sm"
      %ran = mgpu.nd_loop [%sm_steps_val, %c4, %c33] collective_axes ["sm"]
          init_carry(%zero : i32) -> i32 {
      ^bb0(%i: index, %j: index, %k: index, %local: index, %carry: i32):
        // flat_idx = (i * 4 + j) * 33 + k (JAX clips each index to its
        // dimension first, which changes nothing here).
        %i4 = arith.muli %i, %c4 : index
        %ij = arith.addi %i4, %j : index
        %ij33 = arith.muli %ij, %c33 : index
        %flat = arith.addi %ij33, %k : index
        %flat_i32 = arith.index_cast %flat : index to i32
        %sm_step = arith.divsi %flat_i32, %c132 : i32
        %row = arith.index_cast %sm_step : i32 to index
        %v = vector.broadcast %flat_i32 : i32 to vector<128xi32>
        vector.transfer_write %v, %o_ref[%row, %p, %c0] {in_bounds = [true]}
            : vector<128xi32>, !rows
        %next = arith.addi %carry, %one : i32
        mgpu.yield %next : i32
      }
      memref.store %ran, %steps_ref[%p] : memref<132xi32>
    }
    return
  }

  // 130 points over 132 programs, counting up from 7.
  func.func @uneven(%steps: memref<132xi32>) {
    mgpu.pallas_call grid [132] outs(%steps : memref<132xi32>)
        in_specs [] out_specs [#steps] mesh #mesh {
    ^bb0(%steps_ref: memref<132xi32>):
      %c130 = arith.constant 130 : index
      %seven = arith.constant 7 : i32
      %one = arith.constant 1 : i32
      %p = mgpu.axis_index "sm"
      %ran = mgpu.nd_loop [%c130] collective_axes ["sm"]
          init_carry(%seven : i32) -> i32 {
      ^bb0(%i: index, %local: index, %carry: i32):
        %next = arith.addi %carry, %one : i32
        mgpu.yield %next : i32
      }
      memref.store %ran, %steps_ref[%p] : memref<132xi32>
    }
    return
  }

  // Elements of o[0 .. n) not equal to 132 s + p, plus programs whose step
  // count is not n.
  func.func @mismatches(%o: !rows, %steps: memref<132xi32>, %n: index) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c132 = arith.constant 132 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %n_i32 = arith.index_cast %n : index to i32
    %bad = scf.for %p = %c0 to %c132 step %c1 iter_args(%b = %zero) -> i32 {
      %ran = memref.load %steps[%p] : memref<132xi32>
      %wrong = arith.cmpi ne, %ran, %n_i32 : i32
      %w = arith.extui %wrong : i1 to i32
      %b1 = arith.addi %b, %w : i32
      %b2 = scf.for %s = %c0 to %n step %c1 iter_args(%bs = %b1) -> i32 {
        %s132 = arith.muli %s, %c132 : index
        %want_index = arith.addi %s132, %p : index
        %want = arith.index_cast %want_index : index to i32
        %b3 = scf.for %l = %c0 to %c128 step %c1 iter_args(%bl = %bs) -> i32 {
          %got = memref.load %o[%s, %p, %l] : !rows
          %ne = arith.cmpi ne, %got, %want : i32
          %x = arith.extui %ne : i1 to i32
          %bl2 = arith.addi %bl, %x : i32
          scf.yield %bl2 : i32
        }
        scf.yield %b3 : i32
      }
      scf.yield %b2 : i32
    }
    return %bad : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c129 = arith.constant 129 : index
    %c130 = arith.constant 130 : index
    %c131 = arith.constant 131 : index
    %two = arith.constant 2 : i32
    %count = memref.alloc() : memref<1xi32>
    memref.store %two, %count[%c0] : memref<1xi32>
    %o = memref.alloc() : !rows
    %steps = memref.alloc() : memref<132xi32>

    // CHECK: static: 0
    func.call @static(%count, %o, %steps)
        : (memref<1xi32>, !rows, memref<132xi32>) -> ()
    %bad_static = func.call @mismatches(%o, %steps, %c3)
        : (!rows, memref<132xi32>, index) -> i32
    vector.print str "static: "
    vector.print %bad_static : i32

    // CHECK-NEXT: dynamic: 0
    func.call @dynamic(%count, %o, %steps)
        : (memref<1xi32>, !rows, memref<132xi32>) -> ()
    %bad_dynamic = func.call @mismatches(%o, %steps, %c2)
        : (!rows, memref<132xi32>, index) -> i32
    vector.print str "dynamic: "
    vector.print %bad_dynamic : i32

    // CHECK-NEXT: ( 8, 8, 7, 7 )
    func.call @uneven(%steps) : (memref<132xi32>) -> ()
    %s0 = memref.load %steps[%c0] : memref<132xi32>
    %s129 = memref.load %steps[%c129] : memref<132xi32>
    %s130 = memref.load %steps[%c130] : memref<132xi32>
    %s131 = memref.load %steps[%c131] : memref<132xi32>
    %printed = vector.from_elements %s0, %s129, %s130, %s131 : vector<4xi32>
    vector.print %printed : vector<4xi32>
    memref.dealloc %steps : memref<132xi32>
    memref.dealloc %o : !rows
    memref.dealloc %count : memref<1xi32>
    return
  }
}
