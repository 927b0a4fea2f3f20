// Pallas semantics of a pallas_call on a [2, 3] sequential grid (memref
// form), the same on every backend:
//  - programs run in Pallas order, last axis innermost, with program_id and
//    num_programs bound to the step indices and sizes (a trace of them is
//    appended to a GMEM array through a GMEM counter);
//  - an output block is not read from memory unless its array is also an
//    input (input_output_aliases): `pairs` and `visits` are both, so their
//    blocks are copied in when they become current, and elements the body
//    does not write keep the array's values;
//  - a block revisited later (not on consecutive steps) is copied in again
//    and sees what the earlier visit wrote back.
// RUN: %run_on_backends %s --match-full-lines

#count = #mgpu.block_spec<shape = [1], index_map = affine_map<(i, j) -> (0)>, memory_space = gmem>
#trace = #mgpu.block_spec<shape = [6], index_map = affine_map<(i, j) -> (0)>, memory_space = gmem>
#pair = #mgpu.block_spec<shape = [4], index_map = affine_map<(i, j) -> (i * 3 + j)>>
#by_j = #mgpu.block_spec<shape = [1], index_map = affine_map<(i, j) -> (j)>>
#params = #mgpu.compiler_params<dimension_semantics = [sequential, sequential]>

module {
  func.func @order(%count: memref<1xi32>, %trace: memref<6xi32>,
                   %pairs: memref<24xf32>, %visits: memref<3xf32>) {
    mgpu.pallas_call grid [2, 3]
        ins(%pairs, %visits : memref<24xf32>, memref<3xf32>)
        outs(%count, %trace, %pairs, %visits
                   : memref<1xi32>, memref<6xi32>, memref<24xf32>, memref<3xf32>)
        in_specs [#pair, #by_j] out_specs [#count, #trace, #pair, #by_j]
        params #params {
    ^bb0(%pr_in: memref<4xf32, #gpu.address_space<workgroup>>,
         %vs_in: memref<1xf32, #gpu.address_space<workgroup>>,
         %cnt: memref<1xi32>, %tr: memref<6xi32>,
         %pr: memref<4xf32, #gpu.address_space<workgroup>>,
         %vs: memref<1xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %i = mgpu.program_id 0
      %j = mgpu.program_id 1
      %nj = mgpu.num_programs 1
      // trace[step] = 100 * i + 10 * j + num_programs(1).
      %step = memref.load %cnt[%c0] : memref<1xi32>
      %step_index = arith.index_cast %step : i32 to index
      %hi = arith.muli %i, %c100 : index
      %mid = arith.muli %j, %c10 : index
      %t0 = arith.addi %hi, %mid : index
      %t1 = arith.addi %t0, %nj : index
      %t = arith.index_cast %t1 : index to i32
      memref.store %t, %tr[%step_index] : memref<6xi32>
      %one = arith.constant 1 : i32
      %next = arith.addi %step, %one : i32
      memref.store %next, %cnt[%c0] : memref<1xi32>
      // Block i * 3 + j of pairs: (i, j) in its first two elements only.
      %ii = arith.index_cast %i : index to i32
      %if = arith.sitofp %ii : i32 to f32
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      memref.store %if, %pr[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %jf, %pr[%c1] : memref<4xf32, #gpu.address_space<workgroup>>
      // Block j of visits, visited at (0, j) and again at (1, j): + 1 each.
      %v = memref.load %vs[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      %fone = arith.constant 1.0 : f32
      %v1 = arith.addf %v, %fone : f32
      memref.store %v1, %vs[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %seven = arith.constant 7.0 : f32
    %ten = arith.constant 10.0 : f32
    %count = memref.alloc() : memref<1xi32>
    %trace = memref.alloc() : memref<6xi32>
    %pairs = memref.alloc() : memref<24xf32>
    %visits = memref.alloc() : memref<3xf32>
    linalg.fill ins(%zero : i32) outs(%count : memref<1xi32>)
    linalg.fill ins(%zero : i32) outs(%trace : memref<6xi32>)
    linalg.fill ins(%seven : f32) outs(%pairs : memref<24xf32>)
    linalg.fill ins(%ten : f32) outs(%visits : memref<3xf32>)
    func.call @order(%count, %trace, %pairs, %visits)
        : (memref<1xi32>, memref<6xi32>, memref<24xf32>, memref<3xf32>) -> ()

    // Six programs, in the order (0,0) (0,1) (0,2) (1,0) (1,1) (1,2), each
    // with num_programs(1) = 3.
    // CHECK: ( 6 )
    // CHECK-NEXT: ( 3, 13, 23, 103, 113, 123 )
    %cv = vector.load %count[%c0] : memref<1xi32>, vector<1xi32>
    vector.print %cv : vector<1xi32>
    %tv = vector.load %trace[%c0] : memref<6xi32>, vector<6xi32>
    vector.print %tv : vector<6xi32>
    // Block b = 3i + j holds (i, j, 7, 7).
    // CHECK-NEXT: ( 0, 0, 7, 7, 0, 1, 7, 7, 0, 2, 7, 7, 1, 0, 7, 7, 1, 1, 7, 7, 1, 2, 7, 7 )
    %pv = vector.load %pairs[%c0] : memref<24xf32>, vector<24xf32>
    vector.print %pv : vector<24xf32>
    // Each visits[j] was incremented twice: 10 + 2.
    // CHECK-NEXT: ( 12, 12, 12 )
    %vv = vector.load %visits[%c0] : memref<3xf32>, vector<3xf32>
    vector.print %vv : vector<3xf32>
    memref.dealloc %count : memref<1xi32>
    memref.dealloc %trace : memref<6xi32>
    memref.dealloc %pairs : memref<24xf32>
    memref.dealloc %visits : memref<3xf32>
    return
  }
}
