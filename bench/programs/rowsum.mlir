// Benchmark: the row sums of a 4096x4096 f32 matrix (64 MiB read, 16 KiB
// written), a memory-bound reduction whose roof is the HBM bandwidth. Each
// CTA owns 2 whole rows (32 KiB): the body is lane-local, so the rows are
// read straight from global memory into registers (--mgpu-direct-blocks),
// all loads in flight at once, and reduced with shuffles. Timed with CUDA
// events (mgpuTimingStart/Report); checked once.

#x_block = #mgpu.block_spec<shape = [2, 4096], index_map = affine_map<(i) -> (i, 0)>>
#o_block = #mgpu.block_spec<shape = [2], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("rowsum 4096x4096 f32\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @rowsum(%x: tensor<4096x4096xf32>, %init: tensor<4096xf32>)
      -> tensor<4096xf32> {
    %out = mgpu.pallas_call grid [2048]
        ins(%x : tensor<4096x4096xf32>)
        outs(%init : tensor<4096xf32>)
        in_specs [#x_block] out_specs [#o_block]
        params #params {
    ^bb0(%xs: memref<2x4096xf32, #gpu.address_space<workgroup>>,
         %os: memref<2xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<2xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<2x4096xf32, #gpu.address_space<workgroup>>, vector<2x4096xf32>
      %sum = vector.multi_reduction <add>, %v, %zero [1]
          : vector<2x4096xf32> to vector<2xf32>
      vector.transfer_write %sum, %os[%c0] {in_bounds = [true]}
          : vector<2xf32>, memref<2xf32, #gpu.address_space<workgroup>>
    } -> tensor<4096xf32>
    return %out : tensor<4096xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 4096 : index
    // x[r][c] = (r + c) mod 8: row r sums to 4096 / 8 * 28 = 14336 whatever
    // r is, exactly in f32.
    %x = memref.alloc() : memref<4096x4096xf32>
    scf.for %r = %c0 to %n step %c1 {
      scf.for %c = %c0 to %n step %c1 {
        %s = arith.addi %r, %c : index
        %m = arith.remui %s, %c8 : index
        %mi = arith.index_cast %m : index to i32
        %f = arith.sitofp %mi : i32 to f32
        memref.store %f, %x[%r, %c] : memref<4096x4096xf32>
      }
    }
    %xt = bufferization.to_tensor %x restrict : memref<4096x4096xf32> to tensor<4096x4096xf32>
    %init = tensor.empty() : tensor<4096xf32>

    func.call @mgpuTimingStart() : () -> ()
    %runs = arith.constant 12 : index
    scf.for %i = %c0 to %runs step %c1 {
      %t = func.call @rowsum(%xt, %init)
          : (tensor<4096x4096xf32>, tensor<4096xf32>) -> tensor<4096xf32>
    }
    %label = llvm.mlir.addressof @label : !llvm.ptr
    %flops = arith.constant 16777216.0 : f64
    %bytes = arith.constant 67125248.0 : f64
    %warmup = arith.constant 2 : i64
    func.call @mgpuTimingReport(%label, %flops, %bytes, %warmup)
        : (!llvm.ptr, f64, f64, i64) -> ()

    %ot = func.call @rowsum(%xt, %init)
        : (tensor<4096x4096xf32>, tensor<4096xf32>) -> tensor<4096xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<4096xf32> to memref<4096xf32>
    %want = arith.constant 14336.0 : f32
    %zero = arith.constant 0 : i32
    %bad = scf.for %r = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %got = memref.load %o[%r] : memref<4096xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "rowsum mismatches: "
    vector.print %bad : i32
    memref.dealloc %x : memref<4096x4096xf32>
    return
  }
}
