// Benchmark: C = A x B with A, B bf16 4096x4096 and C f32 (2 * 4096^3
// flops) written as examples/matmul_warp_specialized.mlir is: per CTA a
// 128x256 tile, a TMA producer warpgroup filling a 4-stage ring of 128x64
// and 64x256 swizzled blocks, two consumer warpgroups with two 64x128
// register accumulators each on the tensor cores, one step's MMAs in
// flight. The bundle builds it as is (tensor cores, the default) and with
// --tensor-cores=0 (the line below). Timed with CUDA events; 64 entries are
// checked against a scalar dot product.
// bundle-variant: --tensor-cores=0

#mesh = #mgpu.mesh<grid = [32, 16], grid_names = ["i", "j"], num_threads = 3, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!empty = !mgpu.barrier<count = 4, arrivals = 2>
!done = !mgpu.barrier<count = 1, arrivals = 2>
// The 4 stages of a (16 KiB each) and of b (32 KiB each), as bytes viewed
// per stage.
!ring_a = memref<65536xi8, #gpu.address_space<workgroup>>
!ring_b = memref<131072xi8, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, #gpu.address_space<workgroup>>
!a_rows = memref<64x64xbf16, #gpu.address_space<workgroup>>
!b_stage = memref<64x256xbf16, #gpu.address_space<workgroup>>
// Columns [0, 128) and [128, 256) of a b stage.
!b_left = memref<64x128xbf16, strided<[256, 1]>, #gpu.address_space<workgroup>>
!b_right = memref<64x128xbf16, strided<[256, 1], offset: 128>, #gpu.address_space<workgroup>>
// A consumer's 64x128 f32 quarter of c (32 KiB) on its way out.
!out = memref<64x128xf32, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("matmul_bf16_ws 4096^3\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @matmul(%a: memref<4096x4096xbf16>, %b: memref<4096x4096xbf16>,
                       %c: memref<4096x4096xf32>) {
    mgpu.mpmd_map meshes [#mesh]
        ins(%a, %b : memref<4096x4096xbf16>, memref<4096x4096xbf16>)
        outs(%c : memref<4096x4096xf32>)
        scratch [!ring_a, !ring_b, !full, !empty, !done] {
    ^bb0(%ag: memref<4096x4096xbf16>, %bg: memref<4096x4096xbf16>,
         %cg: memref<4096x4096xf32>, %as: !ring_a, %bs: !ring_b,
         %full: !full, %empty: !empty, %done: !done):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %steps = arith.constant 64 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %a_bytes = arith.constant 16384 : index
      %b_bytes = arith.constant 32768 : index
      %i = mgpu.program_id 0
      %j = mgpu.program_id 1
      %row = arith.muli %i, %c128 : index
      %col = arith.muli %j, %c256 : index
      %wg = mgpu.axis_index "wg"
      %producer = arith.cmpi eq, %wg, %c2 : index
      scf.if %producer {
        mgpu.set_max_registers 40 decrease
        scf.for %k = %c0 to %steps step %c1 {
          %slot = arith.remui %k, %c4 : index
          %reuse = arith.cmpi uge, %k, %c4 : index
          scf.if %reuse {
            mgpu.barrier_wait %empty[%slot] : !empty
          }
          %kk = arith.muli %k, %c64 : index
          %a_at = arith.muli %slot, %a_bytes : index
          %b_at = arith.muli %slot, %b_bytes : index
          %a_dst = memref.view %as[%a_at][] : !ring_a to !a_stage
          %b_dst = memref.view %bs[%b_at][] : !ring_b to !b_stage
          mgpu.copy_gmem_to_smem %ag[%row, %kk], %a_dst, %full[%slot]
              transforms #sw : memref<4096x4096xbf16>, !a_stage, !full
          mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
              transforms #sw : memref<4096x4096xbf16>, !b_stage, !full
        }
      } else {
        mgpu.set_max_registers 232 increase
        %mine = arith.muli %wg, %c64 : index
        // Rows 64 w of an a stage: w 64x64 tiles (8 KiB) into it.
        %rows_bytes = arith.constant 8192 : index
        %mine_bytes = arith.muli %wg, %rows_bytes : index
        %zero = arith.constant dense<0.0> : vector<64x128xf32>
        %acc:2 = scf.for %k = %c0 to %steps step %c1
            iter_args(%left = %zero, %right = %zero)
            -> (vector<64x128xf32>, vector<64x128xf32>) {
          %slot = arith.remui %k, %c4 : index
          mgpu.barrier_wait %full[%slot] : !full
          %a_stage_at = arith.muli %slot, %a_bytes : index
          %a_at = arith.addi %a_stage_at, %mine_bytes : index
          %a_rows = memref.view %as[%a_at][] : !ring_a to !a_rows
          %b_at = arith.muli %slot, %b_bytes : index
          %b_src = memref.view %bs[%b_at][] : !ring_b to !b_stage
          %b_left = memref.subview %b_src[0, 0] [64, 128] [1, 1]
              : !b_stage to !b_left
          %b_right = memref.subview %b_src[0, 128] [64, 128] [1, 1]
              : !b_stage to !b_right
          %next_left = mgpu.wgmma %left, %a_rows, %b_left
              a_transforms #sw b_transforms #sw
              : vector<64x128xf32>, !a_rows, !b_left
          %next_right = mgpu.wgmma %right, %a_rows, %b_right
              a_transforms #sw b_transforms #sw
              : vector<64x128xf32>, !a_rows, !b_right
          // At most this step's MMAs in flight: the previous stage is free.
          mgpu.wgmma_wait 1
          %started = arith.cmpi uge, %k, %c1 : index
          scf.if %started {
            %back = arith.addi %k, %c3 : index
            %prev = arith.remui %back, %c4 : index
            mgpu.barrier_arrive %empty[%prev] : !empty
          }
          scf.yield %next_left, %next_right
              : vector<64x128xf32>, vector<64x128xf32>
        }
        mgpu.wgmma_wait 0
        // The ring is free once both consumers' MMAs are done: the producer's
        // copies all landed before the consumers' waits on `full`.
        mgpu.barrier_arrive %done[%c0] : !done
        mgpu.barrier_wait %done[%c0] : !done
        // Consumer w's quarters at 64 KiB w and 64 KiB w + 32 KiB of b's ring.
        %quarter = arith.constant 32768 : index
        %left_at = arith.muli %mine_bytes, %c8 : index
        %right_at = arith.addi %left_at, %quarter : index
        %o_left = memref.view %bs[%left_at][] : !ring_b to !out
        %o_right = memref.view %bs[%right_at][] : !ring_b to !out
        vector.transfer_write %acc#0, %o_left[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x128xf32>, !out
        vector.transfer_write %acc#1, %o_right[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x128xf32>, !out
        mgpu.commit_smem
        %at = arith.addi %row, %mine : index
        %col_right = arith.addi %col, %c128 : index
        mgpu.copy_smem_to_gmem %o_left, %cg[%at, %col]
            : !out, memref<4096x4096xf32>
        mgpu.copy_smem_to_gmem %o_right, %cg[%at, %col_right]
            : !out, memref<4096x4096xf32>
        mgpu.wait_smem_to_gmem 0
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
    vector.print str "matmul_bf16_ws mismatches: "
    vector.print %bad : i32
    memref.dealloc %a : memref<4096x4096xbf16>
    memref.dealloc %b : memref<4096x4096xbf16>
    memref.dealloc %cm : memref<4096x4096xf32>
    return
  }
}
