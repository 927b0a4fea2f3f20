// Benchmark: layer norm over the rows of a 4096x4096 f32 matrix (no scale
// or shift; 64 MiB in, 64 MiB out), memory-bound: one CTA per row, mean and
// variance by two reductions over the row held in registers. Timed with
// CUDA events (mgpuTimingStart/Report); checked once.

#rows = #mgpu.block_spec<shape = [1, 4096], index_map = affine_map<(i) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("layernorm 4096x4096 f32\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @layernorm(%x: tensor<4096x4096xf32>, %init: tensor<4096x4096xf32>)
      -> tensor<4096x4096xf32> {
    %out = mgpu.pallas_call grid [4096]
        ins(%x : tensor<4096x4096xf32>)
        outs(%init : tensor<4096x4096xf32>)
        in_specs [#rows] out_specs [#rows]
        params #params {
    ^bb0(%xs: memref<1x4096xf32, #gpu.address_space<workgroup>>,
         %os: memref<1x4096xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant 0.0 : f32
      %inv_n = arith.constant 0.000244140625 : f32
      %eps = arith.constant 1.0e-5 : f32
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true]}
          : memref<1x4096xf32, #gpu.address_space<workgroup>>, vector<4096xf32>
      %sum = vector.reduction <add>, %v, %zero : vector<4096xf32> into f32
      %mean = arith.mulf %sum, %inv_n : f32
      %mean_b = vector.broadcast %mean : f32 to vector<4096xf32>
      %d = arith.subf %v, %mean_b : vector<4096xf32>
      %sq = arith.mulf %d, %d : vector<4096xf32>
      %ssq = vector.reduction <add>, %sq, %zero : vector<4096xf32> into f32
      %var = arith.mulf %ssq, %inv_n : f32
      %var_eps = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %var_eps : f32
      %rstd_b = vector.broadcast %rstd : f32 to vector<4096xf32>
      %r = arith.mulf %d, %rstd_b : vector<4096xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true]}
          : vector<4096xf32>, memref<1x4096xf32, #gpu.address_space<workgroup>>
    } -> tensor<4096x4096xf32>
    return %out : tensor<4096x4096xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 4096 : index
    // x[r][c] = c mod 4 in every row: mean 1.5, variance 1.25, so
    // out[r][c] = (c mod 4 - 1.5) / sqrt(1.25 + 1e-5).
    %x = memref.alloc() : memref<4096x4096xf32>
    scf.for %r = %c0 to %n step %c1 {
      scf.for %c = %c0 to %n step %c1 {
        %m = arith.remui %c, %c4 : index
        %mi = arith.index_cast %m : index to i32
        %f = arith.sitofp %mi : i32 to f32
        memref.store %f, %x[%r, %c] : memref<4096x4096xf32>
      }
    }
    %xt = bufferization.to_tensor %x restrict : memref<4096x4096xf32> to tensor<4096x4096xf32>
    %init = tensor.empty() : tensor<4096x4096xf32>

    func.call @mgpuTimingStart() : () -> ()
    %runs = arith.constant 12 : index
    scf.for %i = %c0 to %runs step %c1 {
      %t = func.call @layernorm(%xt, %init)
          : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    }
    %label = llvm.mlir.addressof @label : !llvm.ptr
    // About 7 operations an element (two sums, subtract, square, scale).
    %flops = arith.constant 117440512.0 : f64
    %bytes = arith.constant 134217728.0 : f64
    %warmup = arith.constant 2 : i64
    func.call @mgpuTimingReport(%label, %flops, %bytes, %warmup)
        : (!llvm.ptr, f64, f64, i64) -> ()

    %ot = func.call @layernorm(%xt, %init)
        : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<4096x4096xf32> to memref<4096x4096xf32>
    %half3 = arith.constant 1.5 : f32
    %var = arith.constant 1.25001 : f32
    %tol = arith.constant 1.0e-5 : f32
    %std = math.sqrt %var : f32
    %zero = arith.constant 0 : i32
    %bad = scf.for %r = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %row = scf.for %c = %c0 to %n step %c1 iter_args(%rc = %count) -> i32 {
        %m = arith.remui %c, %c4 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        %centered = arith.subf %mf, %half3 : f32
        %want = arith.divf %centered, %std : f32
        %got = memref.load %o[%r, %c] : memref<4096x4096xf32>
        %d = arith.subf %got, %want : f32
        %ad = math.absf %d : f32
        %far = arith.cmpf ugt, %ad, %tol : f32
        %inc = arith.extui %far : i1 to i32
        %next = arith.addi %rc, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row : i32
    }
    vector.print str "layernorm mismatches: "
    vector.print %bad : i32
    memref.dealloc %x : memref<4096x4096xf32>
    return
  }
}
