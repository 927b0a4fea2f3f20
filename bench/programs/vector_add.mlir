// Benchmark: out = a + b on 2^26 f32 (three 256 MiB arrays), a memory-bound
// kernel whose roof is the HBM bandwidth (H200: about 4.8 TB/s). Compiled
// ahead of time into the device bundle (bench/make-device-bundle.sh); the
// launches are timed with CUDA events (mgpuTimingStart/Report), so the host
// copies around each call are not counted. The result is checked once.

#block = #mgpu.block_spec<shape = [4096], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("vector_add 2^26 f32\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @vector_add(%a: tensor<67108864xf32>, %b: tensor<67108864xf32>,
                        %init: tensor<67108864xf32>) -> tensor<67108864xf32> {
    %out = mgpu.pallas_call grid [16384]
        ins(%a, %b : tensor<67108864xf32>, tensor<67108864xf32>)
        outs(%init : tensor<67108864xf32>)
        in_specs [#block, #block] out_specs [#block]
        params #params {
    ^bb0(%x: memref<4096xf32, #gpu.address_space<workgroup>>,
         %y: memref<4096xf32, #gpu.address_space<workgroup>>,
         %o: memref<4096xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %vx = vector.transfer_read %x[%c0], %pad {in_bounds = [true]}
          : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4096xf32>
      %vy = vector.transfer_read %y[%c0], %pad {in_bounds = [true]}
          : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4096xf32>
      %sum = arith.addf %vx, %vy : vector<4096xf32>
      vector.transfer_write %sum, %o[%c0] {in_bounds = [true]}
          : vector<4096xf32>, memref<4096xf32, #gpu.address_space<workgroup>>
    } -> tensor<67108864xf32>
    return %out : tensor<67108864xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %n = arith.constant 67108864 : index
    %a = memref.alloc() : memref<67108864xf32>
    %b = memref.alloc() : memref<67108864xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c7 : index
      %mi = arith.index_cast %m : index to i32
      %f = arith.sitofp %mi : i32 to f32
      memref.store %f, %a[%i] : memref<67108864xf32>
      memref.store %f, %b[%i] : memref<67108864xf32>
    }
    %at = bufferization.to_tensor %a restrict : memref<67108864xf32> to tensor<67108864xf32>
    %bt = bufferization.to_tensor %b restrict : memref<67108864xf32> to tensor<67108864xf32>
    %init = tensor.empty() : tensor<67108864xf32>

    func.call @mgpuTimingStart() : () -> ()
    %runs = arith.constant 12 : index
    scf.for %r = %c0 to %runs step %c1 {
      %t = func.call @vector_add(%at, %bt, %init)
          : (tensor<67108864xf32>, tensor<67108864xf32>, tensor<67108864xf32>) -> tensor<67108864xf32>
    }
    %label = llvm.mlir.addressof @label : !llvm.ptr
    %flops = arith.constant 67108864.0 : f64
    %bytes = arith.constant 805306368.0 : f64
    %warmup = arith.constant 2 : i64
    func.call @mgpuTimingReport(%label, %flops, %bytes, %warmup)
        : (!llvm.ptr, f64, f64, i64) -> ()

    %ot = func.call @vector_add(%at, %bt, %init)
        : (tensor<67108864xf32>, tensor<67108864xf32>, tensor<67108864xf32>) -> tensor<67108864xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<67108864xf32> to memref<67108864xf32>
    %zero = arith.constant 0 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %m = arith.remui %i, %c7 : index
      %mi = arith.index_cast %m : index to i32
      %f = arith.sitofp %mi : i32 to f32
      %want = arith.addf %f, %f : f32
      %got = memref.load %o[%i] : memref<67108864xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "vector_add mismatches: "
    vector.print %bad : i32
    memref.dealloc %a : memref<67108864xf32>
    memref.dealloc %b : memref<67108864xf32>
    return
  }
}
