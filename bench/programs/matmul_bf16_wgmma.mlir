// Benchmark: C = A x B with A, B bf16 4096x4096 and C f32 (2 * 4096^3
// flops) written as examples/matmul_bf16.mlir is (JAX's 128x128x64 tiling,
// a 4-stage emit_pipeline over K, one mgpu.wgmma per 64-row half, both
// accumulators carried in registers across the pipeline). The bundle
// builds it twice: as is (wgmma.mma_async, the default) and with
// --tensor-cores=0 (ordinary instructions), the line below says so. Timed with CUDA
// events; 64 entries are checked against a scalar dot product.
// bundle-variant: --tensor-cores=0

#whole = #mgpu.block_spec<shape = [4096, 4096], index_map = affine_map<(i, j) -> (0, 0)>, memory_space = gmem>
#c_block = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i, j) -> (i, j)>>
#a_k = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#stages = #mgpu.compiler_params<max_concurrent_steps = 4>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("matmul_bf16_wgmma 4096^3\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @matmul(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>,
                    %init: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %c = mgpu.pallas_call grid [32, 32]
        ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>)
        outs(%init : tensor<4096x4096xf32>)
        in_specs [#whole, #whole] out_specs [#c_block] {
    ^bb0(%ag: memref<4096x4096xbf16>, %bg: memref<4096x4096xbf16>,
         %cs: memref<128x128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      vector.transfer_write %zero, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #gpu.address_space<workgroup>>
      %i = mgpu.program_id 0
      %j = mgpu.program_id 1
      %row = arith.muli %i, %c128 : index
      %col = arith.muli %j, %c128 : index
      %rows = memref.subview %ag[%row, 0] [128, 4096] [1, 1]
          : memref<4096x4096xbf16> to memref<128x4096xbf16, strided<[4096, 1], offset: ?>>
      %cols = memref.subview %bg[0, %col] [4096, 128] [1, 1]
          : memref<4096x4096xbf16> to memref<4096x128xbf16, strided<[4096, 1], offset: ?>>
      mgpu.emit_pipeline grid [64]
          ins(%rows, %cols : memref<128x4096xbf16, strided<[4096, 1], offset: ?>>,
                             memref<4096x128xbf16, strided<[4096, 1], offset: ?>>)
          in_specs [#a_k, #b_k] out_specs [] params #stages {
      ^bb0(%k: index, %as: memref<128x64xbf16, #gpu.address_space<workgroup>>,
           %bs: memref<64x128xbf16, #gpu.address_space<workgroup>>):
        %a_top = memref.subview %as[0, 0] [64, 64] [1, 1]
            : memref<128x64xbf16, #gpu.address_space<workgroup>>
            to memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
        %a_bot = memref.subview %as[64, 0] [64, 64] [1, 1]
            : memref<128x64xbf16, #gpu.address_space<workgroup>>
            to memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        %acc0 = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
            : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
        %acc1 = vector.transfer_read %cs[%c64, %c0], %pad {in_bounds = [true, true]}
            : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
        %r0 = mgpu.wgmma %acc0, %a_top, %bs : vector<64x128xf32>,
            memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>,
            memref<64x128xbf16, #gpu.address_space<workgroup>>
        %r1 = mgpu.wgmma %acc1, %a_bot, %bs : vector<64x128xf32>,
            memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>,
            memref<64x128xbf16, #gpu.address_space<workgroup>>
        mgpu.wgmma_wait 0
        vector.transfer_write %r0, %cs[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x128xf32>, memref<128x128xf32, #gpu.address_space<workgroup>>
        vector.transfer_write %r1, %cs[%c64, %c0] {in_bounds = [true, true]}
            : vector<64x128xf32>, memref<128x128xf32, #gpu.address_space<workgroup>>
      }
    } -> tensor<4096x4096xf32>
    return %c : tensor<4096x4096xf32>
  }

  // a[i][k] = (i + k) mod 3 - 1 and b[k][j] = (k + 2 j) mod 5 - 2: small
  // integers, exact in bf16, with sums exact in f32.
  func.func @a_at(%i: index, %k: index) -> f32 {
    %c3 = arith.constant 3 : index
    %one = arith.constant 1.0 : f32
    %s = arith.addi %i, %k : index
    %m = arith.remui %s, %c3 : index
    %mi = arith.index_cast %m : index to i32
    %f = arith.sitofp %mi : i32 to f32
    %v = arith.subf %f, %one : f32
    return %v : f32
  }
  func.func @b_at(%k: index, %j: index) -> f32 {
    %c5 = arith.constant 5 : index
    %two = arith.constant 2.0 : f32
    %j2 = arith.addi %j, %j : index
    %s = arith.addi %k, %j2 : index
    %m = arith.remui %s, %c5 : index
    %mi = arith.index_cast %m : index to i32
    %f = arith.sitofp %mi : i32 to f32
    %v = arith.subf %f, %two : f32
    return %v : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 4096 : index
    %a = memref.alloc() : memref<4096x4096xbf16>
    %b = memref.alloc() : memref<4096x4096xbf16>
    scf.for %r = %c0 to %n step %c1 {
      scf.for %c = %c0 to %n step %c1 {
        %av = func.call @a_at(%r, %c) : (index, index) -> f32
        %ab = arith.truncf %av : f32 to bf16
        memref.store %ab, %a[%r, %c] : memref<4096x4096xbf16>
        %bv = func.call @b_at(%r, %c) : (index, index) -> f32
        %bb = arith.truncf %bv : f32 to bf16
        memref.store %bb, %b[%r, %c] : memref<4096x4096xbf16>
      }
    }
    %at = bufferization.to_tensor %a restrict : memref<4096x4096xbf16> to tensor<4096x4096xbf16>
    %bt = bufferization.to_tensor %b restrict : memref<4096x4096xbf16> to tensor<4096x4096xbf16>
    %init = tensor.empty() : tensor<4096x4096xf32>

    func.call @mgpuTimingStart() : () -> ()
    %runs = arith.constant 5 : index
    scf.for %i = %c0 to %runs step %c1 {
      %t = func.call @matmul(%at, %bt, %init)
          : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    }
    %label = llvm.mlir.addressof @label : !llvm.ptr
    %flops = arith.constant 137438953472.0 : f64
    %bytes = arith.constant 134217728.0 : f64
    %warmup = arith.constant 1 : i64
    func.call @mgpuTimingReport(%label, %flops, %bytes, %warmup)
        : (!llvm.ptr, f64, f64, i64) -> ()

    %ct = func.call @matmul(%at, %bt, %init)
        : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %cm = bufferization.to_buffer %ct read_only : tensor<4096x4096xf32> to memref<4096x4096xf32>
    // Entries (63 s, 97 s mod 4096) for s < 64: rows and columns spread over
    // the matrix, in every CTA row.
    %c63 = arith.constant 63 : index
    %c97 = arith.constant 97 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %bad = scf.for %s = %c0 to %c64 step %c1 iter_args(%count = %zero) -> i32 {
      %i0 = arith.muli %s, %c63 : index
      %i = arith.remui %i0, %n : index
      %j0 = arith.muli %s, %c97 : index
      %j = arith.remui %j0, %n : index
      %want = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %fzero) -> f32 {
        %x = func.call @a_at(%i, %k) : (index, index) -> f32
        %y = func.call @b_at(%k, %j) : (index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %next = arith.addf %sum, %p : f32
        scf.yield %next : f32
      }
      %got = memref.load %cm[%i, %j] : memref<4096x4096xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "matmul_bf16 mismatches: "
    vector.print %bad : i32
    memref.dealloc %a : memref<4096x4096xbf16>
    memref.dealloc %b : memref<4096x4096xbf16>
    return
  }
}
