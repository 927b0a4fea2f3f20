// examples/dynamic_grid.mlir on the CPU: grid [%blocks] with an SSA size,
// run on arrays of 1000 (partial last block), 256 and 1 elements.
// RUN: %run_on_backends %s --match-full-lines

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @dynamic_grid(%x: tensor<?xf32>, %init: tensor<?xf32>)
      -> tensor<?xf32> {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %n = tensor.dim %x, %c0 : tensor<?xf32>
    %blocks = arith.ceildivui %n, %c128 : index
    %out = mgpu.pallas_call grid [%blocks]
        ins(%x : tensor<?xf32>)
        outs(%init : tensor<?xf32>)
        in_specs [#block] out_specs [#block]
        params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %i0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %three = arith.constant dense<3.0> : vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %v = vector.transfer_read %xs[%i0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %scaled = arith.mulf %v, %three : vector<128xf32>
      %r = arith.subf %scaled, %one : vector<128xf32>
      vector.transfer_write %r, %os[%i0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<?xf32>
    return %out : tensor<?xf32>
  }

  // Runs the kernel on x[i] = i / 4, i < n; prints the number of elements
  // that differ from the scalar reference 3 * x[i] - 1, then out[n - 1].
  func.func @check(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %quarter = arith.constant 0.25 : f32
    %x = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.mulf %f, %quarter : f32
      memref.store %v, %x[%i] : memref<?xf32>
    }
    %xt = bufferization.to_tensor %x restrict : memref<?xf32> to tensor<?xf32>
    %init = tensor.empty(%n) : tensor<?xf32>
    %ot = func.call @dynamic_grid(%xt, %init)
        : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<?xf32> to memref<?xf32>

    %zero = arith.constant 0 : i32
    %three = arith.constant 3.0 : f32
    %one = arith.constant 1.0 : f32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x[%i] : memref<?xf32>
      %t = arith.mulf %v, %three : f32
      %want = arith.subf %t, %one : f32
      %got = memref.load %o[%i] : memref<?xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "mismatches: "
    vector.print %bad : i32
    %last = arith.subi %n, %c1 : index
    %vl = memref.load %o[%last] : memref<?xf32>
    vector.print %vl : f32
    memref.dealloc %x : memref<?xf32>
    return
  }

  func.func @main() {
    // 1000 elements: 8 programs, the last one on a block of 104 elements;
    // out[999] = 3 * 249.75 - 1 = 748.25.
    // CHECK: mismatches: 0
    // CHECK-NEXT: 748.25
    %n1 = arith.constant 1000 : index
    func.call @check(%n1) : (index) -> ()
    // 256 elements: 2 programs; out[255] = 3 * 63.75 - 1 = 190.25.
    // CHECK-NEXT: mismatches: 0
    // CHECK-NEXT: 190.25
    %n2 = arith.constant 256 : index
    func.call @check(%n2) : (index) -> ()
    // 1 element: 1 program; out[0] = 3 * 0 - 1 = -1.
    // CHECK-NEXT: mismatches: 0
    // CHECK-NEXT: -1
    %n3 = arith.constant 1 : index
    func.call @check(%n3) : (index) -> ()
    return
  }
}
