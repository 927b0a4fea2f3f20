// Benchmark: C = A x B with A, B bf16 4096x4096 and C f32 (2 * 4096^3
// flops) written as examples/matmul_ws_pipeline.mlir is: a pallas_call of
// [32, 32] programs of 3 Pallas threads, each owning a 128x128 tile of C in
// shared memory, with a warp-specialized emit_pipeline over K (steps of
// 64, 4 buffers): the compiler makes thread 2 the TMA memory thread and
// threads 0 and 1 the compute threads, each multiplying its 64 rows on the
// tensor cores with its accumulator in registers. The bundle builds it as is
// (tensor cores, the default) and with --tensor-cores=0 (the line below). Timed with CUDA events; 64 entries are
// checked against a scalar dot product.
// bundle-variant: --tensor-cores=0

#mesh = #mgpu.mesh<grid = [32, 32], grid_names = ["i", "j"], num_threads = 3, thread_name = "wg">
#whole = #mgpu.block_spec<shape = [4096, 4096], index_map = affine_map<(i, j, t) -> (0, 0)>, memory_space = gmem>
#c_tile = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i, j, t) -> (i, j)>>
#a_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#stages = #mgpu.compiler_params<max_concurrent_steps = 4>
#ws = #mgpu.warp_specialization<memory_registers = 40>
!tile = memref<128x128xf32, #gpu.address_space<workgroup>>
!a_block = memref<64x64xbf16, #gpu.address_space<workgroup>>
!b_block = memref<64x128xbf16, #gpu.address_space<workgroup>>
!a_rows = memref<64x4096xbf16, strided<[4096, 1], offset: ?>>
!b_cols = memref<4096x128xbf16, strided<[4096, 1], offset: ?>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("matmul_bf16_ws_pipeline 4096^3\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @matmul(%a: memref<4096x4096xbf16>, %b: memref<4096x4096xbf16>,
                    %c: memref<4096x4096xf32>) {
    mgpu.pallas_call grid [32, 32, 3]
        ins(%a, %b : memref<4096x4096xbf16>, memref<4096x4096xbf16>)
        outs(%c : memref<4096x4096xf32>)
        in_specs [#whole, #whole] out_specs [#c_tile] mesh #mesh {
    ^bb0(%ag: memref<4096x4096xbf16>, %bg: memref<4096x4096xbf16>, %cs: !tile):
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant 0.0 : f32
      %i = mgpu.program_id 0
      %j = mgpu.program_id 1
      %wg = mgpu.axis_index "wg"
      %row = arith.muli %i, %c128 : index
      %row_bottom = arith.addi %row, %c64 : index
      %col = arith.muli %j, %c128 : index
      %mine = arith.muli %wg, %c64 : index
      %top = memref.subview %ag[%row, 0] [64, 4096] [1, 1]
          : memref<4096x4096xbf16> to !a_rows
      %bottom = memref.subview %ag[%row_bottom, 0] [64, 4096] [1, 1]
          : memref<4096x4096xbf16> to !a_rows
      %cols = memref.subview %bg[0, %col] [4096, 128] [1, 1]
          : memref<4096x4096xbf16> to !b_cols
      %computes = arith.cmpi ult, %wg, %c2 : index
      scf.if %computes {
        %zero = arith.constant dense<0.0> : vector<64x128xf32>
        vector.transfer_write %zero, %cs[%mine, %c0] {in_bounds = [true, true]}
            : vector<64x128xf32>, !tile
      }
      %first = arith.cmpi eq, %wg, %c0 : index
      mgpu.emit_pipeline grid [64]
          ins(%top, %bottom, %cols : !a_rows, !a_rows, !b_cols)
          in_specs [#a_k, #a_k, #b_k] out_specs [] params #stages
          warp_specialization #ws {
      ^bb0(%k: index, %a_top: !a_block, %a_bottom: !a_block, %bs: !b_block):
        %as = arith.select %first, %a_top, %a_bottom : !a_block
        %acc = vector.transfer_read %cs[%mine, %c0], %pad {in_bounds = [true, true]}
            : !tile, vector<64x128xf32>
        %r = mgpu.wgmma %acc, %as, %bs : vector<64x128xf32>, !a_block, !b_block
        vector.transfer_write %r, %cs[%mine, %c0] {in_bounds = [true, true]}
            : vector<64x128xf32>, !tile
      }
    }
    return
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
    %cm = memref.alloc() : memref<4096x4096xf32>

    func.call @mgpuTimingStart() : () -> ()
    %runs = arith.constant 5 : index
    scf.for %i = %c0 to %runs step %c1 {
      func.call @matmul(%a, %b, %cm)
          : (memref<4096x4096xbf16>, memref<4096x4096xbf16>, memref<4096x4096xf32>) -> ()
    }
    %label = llvm.mlir.addressof @label : !llvm.ptr
    %flops = arith.constant 137438953472.0 : f64
    %bytes = arith.constant 134217728.0 : f64
    %warmup = arith.constant 1 : i64
    func.call @mgpuTimingReport(%label, %flops, %bytes, %warmup)
        : (!llvm.ptr, f64, f64, i64) -> ()

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
    vector.print str "matmul_bf16_ws_pipeline mismatches: "
    vector.print %bad : i32
    memref.dealloc %a : memref<4096x4096xbf16>
    memref.dealloc %b : memref<4096x4096xbf16>
    memref.dealloc %cm : memref<4096x4096xf32>
    return
  }
}
