// Benchmark: C = A x B with A, B bf16 4096x4096 and C f32 (2 * 4096^3 flops),
// the tensor-core problem mgpu is measured on against cuBLAS, Triton and JAX
// Pallas MGPU. The body is a plain vector.contract on 64x64x32 blocks
// accumulating into the revisited output block; until contractions become
// wgmma this measures mgpu's lane-by-lane lowering. Timed with CUDA events
// (mgpuTimingStart/Report); 64 entries are checked against a scalar dot
// product.

#a_block = #mgpu.block_spec<shape = [64, 32], index_map = affine_map<(i, j, k) -> (i, k)>>
#b_block = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, j, k) -> (k, j)>>
#c_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j, k) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential],
                                max_concurrent_steps = 3>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("matmul_bf16 4096^3\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @matmul(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>,
                    %init: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %c = mgpu.pallas_call grid [64, 64, 128]
        ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>)
        outs(%init : tensor<4096x4096xf32>)
        in_specs [#a_block, #b_block] out_specs [#c_block]
        params #params {
    ^bb0(%as: memref<64x32xbf16, #gpu.address_space<workgroup>>,
         %bs: memref<32x64xbf16, #gpu.address_space<workgroup>>,
         %cs: memref<64x64xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : bf16
      %fpad = arith.constant 0.0 : f32
      %k = mgpu.program_id 2
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<64x64xf32>
        vector.transfer_write %zero, %cs[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
      }
      %va = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x32xbf16, #gpu.address_space<workgroup>>, vector<64x32xbf16>
      %vb = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<32x64xbf16, #gpu.address_space<workgroup>>, vector<32x64xbf16>
      %wa = arith.extf %va : vector<64x32xbf16> to vector<64x32xf32>
      %wb = arith.extf %vb : vector<32x64xbf16> to vector<32x64xf32>
      %acc = vector.transfer_read %cs[%c0, %c0], %fpad {in_bounds = [true, true]}
          : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<64x64xf32>
      %r = vector.contract {
          indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                           affine_map<(m, n, k) -> (k, n)>,
                           affine_map<(m, n, k) -> (m, n)>],
          iterator_types = ["parallel", "parallel", "reduction"],
          kind = #vector.kind<add>} %wa, %wb, %acc
          : vector<64x32xf32>, vector<32x64xf32> into vector<64x64xf32>
      vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
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
