// jax/experimental/pallas/ops/gpu/transposed_ragged_dot_mgpu.py, written
// line for line: out[g] = lhs[rows of group g]^T @ rhs[rows of group g]
// (lhs K x M, rhs K x N, the K rows split into G groups of uneven sizes).
// A plgpu.kernel over grid (num_sms,) "sm" (an mpmd_map with one mesh), a
// persistent nd_loop over (g, grid_m * grid_n) with a planar snake, per
// tile a run_scoped ACC, the group skipped when empty (pl.when), and an
// emit_pipeline over the group's K blocks (a run-time grid,
// group_num_blocks[g]) whose lhs and rhs blocks are tiled (8, 64) and
// swizzled 128 (find_swizzle), delay_release = 1. The first block of a
// group zeroes the lhs rows before the group's start, the last block those
// after its end: the lanes read the whole slot, multiply it by an iota
// mask in Layout.WGMMA and write it back, commit_smem; then wgmma with
// transpose_ref(lhs_smem) and rhs_smem (see "Not as JAX"). Epilogue: the
// accumulator as f16 into a run_scoped o_smem with the transforms, copied
// out to o[g, m tile, n tile].
// The index maps capture m_i and n_i (lambda k_i: (k_i, m_i)) as the
// maps' symbols (index_map_symbols). The GMEM views the pipeline takes
// are JAX's gmem_slice =
// pl.ds(group_block_start, k) (line 99): past lhs and rhs wherever
// group_block_start > 0 (group 3 here, from row 128); the pipeline reads
// only the group's blocks, and copies clip at the arrays.
// Sizes: K = 256, M = N = 128, G = 4 groups of sizes 40, 0, 100, 116
// (boundaries at rows 40 and 140, inside blocks 0 and 2; group 1 is empty
// and skipped, its output zero; group 2 spans 3 blocks, masked at both
// ends; group 0 is one block masked at both ends); block_m = block_n =
// block_k = 64, max_concurrent_steps = 2, grid_block_n = 2, 2 programs for
// the SMs. Inputs are small integers, so every sum is exact in f16.
// Changed:
// 1. pl.multiple_of (line 98) has no mgpu spelling: omitted (a hint only).
// 2. The host part (lines 57-64: group_starts, group_ends,
//    group_block_starts, group_num_blocks from the cumsum of group_sizes)
//    is scalar host code in @transposed_ragged_dot.
// 3. o_smem's transforms are named on its copy out (mgpu names transforms
//    per op); the lanes write it through them (--mgpu-propagate-transforms).
// The wgmma's a is transpose_ref(lhs_smem) (line 137), read in place as
// JAX reads it: the tiled, swizzled lhs slot goes to the tensor cores as an
// M-major a (imm-trans-a = 1, the M-major descriptor), as the rhs slot
// goes as an N-major b; no lane copies a block.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 4 %s | FileCheck %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=ld.shared.b16 < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// 4 MMAs of K = 16 per step, a M-major and b N-major in place (the last
// two immediates: imm-trans-a = imm-trans-b = 1); lhs and rhs blocks come
// in by TMA; the masking lanes' writes are fenced for the async proxy; no
// lane copies a block to transpose it (no ld.shared.b16 loop).
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 1;
// PTX: cp.async.bulk.tensor.2d.shared
// PTX: fence.proxy.async.shared::cta
// CHECK: mismatches: 0

#mesh = #mgpu.mesh<grid = [2], grid_names = ["sm"]>
#compiler_params = #mgpu.compiler_params<lowering_semantics = warpgroup>
// transforms = (TilingTransform((8, swizzle_elems)), SwizzleTransform(swizzle))
// with swizzle = find_swizzle(64 * 16 bits) = 128, swizzle_elems = 64.
#sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
#lhs_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k_i)[m_i, n_i] -> (k_i, m_i)>,
                             transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>], delay_release = 1>
#rhs_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k_i)[m_i, n_i] -> (k_i, n_i)>,
                             transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>], delay_release = 1>
#stages = #mgpu.compiler_params<max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>
!lhs_t = memref<256x128xf16>
!rhs_t = memref<256x128xf16>
!out_t = memref<4x128x128xf16>
!gi = memref<4xi32>
!blk = memref<64x64xf16, #smem>
!blk_t = memref<64x64xf16, strided<[1, 64]>, #smem>
!slice = memref<256x128xf16, strided<[128, 1], offset: ?>>
!out_tile = memref<64x64xf16, strided<[128, 1], offset: ?>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @kernel(%group_sizes: !gi, %group_starts: !gi, %group_ends: !gi,
                    %group_num_blocks: !gi, %group_block_starts: !gi,
                    %lhs: !lhs_t, %rhs: !rhs_t, %out: !out_t) {
    mgpu.mpmd_map meshes [#mesh]
        ins(%group_sizes, %group_starts, %group_ends, %group_num_blocks,
            %group_block_starts, %lhs, %rhs
            : !gi, !gi, !gi, !gi, !gi, !lhs_t, !rhs_t)
        outs(%out : !out_t) params #compiler_params {
    ^bb0(%group_sizes_gmem: !gi, %group_starts_gmem: !gi, %group_ends_gmem: !gi,
         %group_num_blocks_gmem: !gi, %group_block_starts_gmem: !gi,
         %lhs_gmem: !lhs_t, %rhs_gmem: !rhs_t, %o_gmem: !out_t):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %block_k = arith.constant 64 : i32
      // grid_m = cdiv(m, block_m), grid_n = cdiv(n, block_n)
      %grid_m = arith.constant 2 : index
      %grid_n = arith.constant 2 : index
      %grid_mn = arith.muli %grid_m, %grid_n : index
      mgpu.nd_loop [%c4, %grid_mn] collective_axes ["sm"] {
      ^bb0(%g_i: index, %mn: index, %local: index):
        %m_i, %n_i = mgpu.planar_snake %mn in [%grid_m, %grid_n] minor_dim 1 tile_width 2

        // This slice is potentially out of bounds, but we never access the
        // out of bound part in emit_pipeline.
        %gbs32 = memref.load %group_block_starts_gmem[%g_i] : !gi
        %group_block_start = arith.index_cast %gbs32 : i32 to index
        %m_start = arith.muli %m_i, %c64 : index
        %n_start = arith.muli %n_i, %c64 : index
        %lhs_slice = memref.subview %lhs_gmem[%group_block_start, 0] [256, 128] [1, 1]
            : !lhs_t to !slice
        %rhs_slice = memref.subview %rhs_gmem[%group_block_start, 0] [256, 128] [1, 1]
            : !rhs_t to !slice

        %acc = mgpu.run_scoped -> vector<64x64xf32> {
        ^bb0(%acc_ref: vector<64x64xf32>):
          // Skip the group if it is empty.
          %size = memref.load %group_sizes_gmem[%g_i] : !gi
          %nonempty = arith.cmpi sgt, %size, %i0 : i32
          %res = scf.if %nonempty -> vector<64x64xf32> {
            %nb32 = memref.load %group_num_blocks_gmem[%g_i] : !gi
            %nb = arith.index_cast %nb32 : i32 to index
            %r = mgpu.emit_pipeline grid [%nb]
                ins(%lhs_slice, %rhs_slice : !slice, !slice)
                init_carry(%acc_ref : vector<64x64xf32>)
                in_specs [#lhs_spec, #rhs_spec] out_specs []
                index_map_symbols(%m_i, %n_i) params #stages
                -> vector<64x64xf32> {
            ^bb0(%block_idx: index, %lhs_smem: !blk, %rhs_smem: !blk, %acc_in: vector<64x64xf32>):
              %pad = arith.constant 0.0 : f16
              %step = vector.step : vector<64xindex>
              %step32 = arith.index_cast %step : vector<64xindex> to vector<64xi32>
              %rows1 = vector.shape_cast %step32 : vector<64xi32> to vector<64x1xi32>

              %is_first = arith.cmpi eq, %block_idx, %c0 : index
              scf.if %is_first {
                // Handles the first block of the group, where there might be
                // data from the previous group in the beginning of the block.
                %lhs_reg = vector.transfer_read %lhs_smem[%c0, %c0], %pad {in_bounds = [true, true]}
                    : !blk, vector<64x64xf16>
                %gs = memref.load %group_starts_gmem[%g_i] : !gi
                %start_index = arith.remsi %gs, %block_k : i32
                %iota = vector.broadcast %rows1 : vector<64x1xi32> to vector<64x64xi32>
                %indices = mgpu.layout_cast %iota : vector<64x64xi32> to #mgpu.layout<wgmma>
                %start_v = vector.broadcast %start_index : i32 to vector<64x64xi32>
                %keep = arith.cmpi sge, %indices, %start_v : vector<64x64xi32>
                %lhs_mask = arith.uitofp %keep : vector<64x64xi1> to vector<64x64xf16>
                %masked = arith.mulf %lhs_reg, %lhs_mask : vector<64x64xf16>
                vector.transfer_write %masked, %lhs_smem[%c0, %c0] {in_bounds = [true, true]}
                    : vector<64x64xf16>, !blk
                mgpu.commit_smem
              }

              %nbm1 = arith.subi %nb, %c1 : index
              %is_last = arith.cmpi eq, %block_idx, %nbm1 : index
              scf.if %is_last {
                // Handles the last block of the group, where there might be
                // data from the next group in the end of the block.
                %lhs_reg = vector.transfer_read %lhs_smem[%c0, %c0], %pad {in_bounds = [true, true]}
                    : !blk, vector<64x64xf16>
                %ge = memref.load %group_ends_gmem[%g_i] : !gi
                %gem1 = arith.subi %ge, %i1 : i32
                %last_index = arith.remsi %gem1, %block_k : i32
                %iota = vector.broadcast %rows1 : vector<64x1xi32> to vector<64x64xi32>
                %indices = mgpu.layout_cast %iota : vector<64x64xi32> to #mgpu.layout<wgmma>
                %last_v = vector.broadcast %last_index : i32 to vector<64x64xi32>
                %keep = arith.cmpi sle, %indices, %last_v : vector<64x64xi32>
                %lhs_mask = arith.uitofp %keep : vector<64x64xi1> to vector<64x64xf16>
                %masked = arith.mulf %lhs_reg, %lhs_mask : vector<64x64xf16>
                vector.transfer_write %masked, %lhs_smem[%c0, %c0] {in_bounds = [true, true]}
                    : vector<64x64xf16>, !blk
                mgpu.commit_smem
              }

              %lhs_t = memref.transpose %lhs_smem (r, c) -> (c, r) : !blk to !blk_t
              %next = mgpu.wgmma %acc_in, %lhs_t, %rhs_smem
                  : vector<64x64xf32>, !blk_t, !blk
              // max_concurrent_steps > 1: no wgmma_wait here (line 138).
              mgpu.yield %next : vector<64x64xf32>
            }
            scf.yield %r : vector<64x64xf32>
          } else {
            scf.yield %acc_ref : vector<64x64xf32>
          }
          mgpu.yield %res : vector<64x64xf32>
        }

        mgpu.run_scoped {
        ^bb0(%o_smem: !blk):
          %acc16 = arith.truncf %acc : vector<64x64xf32> to vector<64x64xf16>
          vector.transfer_write %acc16, %o_smem[%c0, %c0] {in_bounds = [true, true]}
              : vector<64x64xf16>, !blk
          mgpu.commit_smem
          %o_tile = memref.subview %o_gmem[%g_i, %m_start, %n_start] [1, 64, 64] [1, 1, 1]
              : !out_t to !out_tile
          mgpu.copy_smem_to_gmem %o_smem, %o_tile transforms #sw : !blk, !out_tile
          mgpu.wait_smem_to_gmem 0 read_only
        }
      }
    }
    return
  }

  // transposed_ragged_dot's host part (lines 57-64), then the kernel.
  func.func @transposed_ragged_dot(%lhs: !lhs_t, %rhs: !rhs_t, %group_sizes: !gi,
                                   %out: !out_t) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %i0 = arith.constant 0 : i32
    %block_k = arith.constant 64 : i32
    %group_starts = memref.alloc() : !gi
    %group_ends = memref.alloc() : !gi
    %group_block_starts = memref.alloc() : !gi
    %group_num_blocks = memref.alloc() : !gi
    %end = scf.for %g = %c0 to %c4 step %c1 iter_args(%start = %i0) -> i32 {
      %size = memref.load %group_sizes[%g] : !gi
      %e = arith.addi %start, %size : i32
      memref.store %start, %group_starts[%g] : !gi
      memref.store %e, %group_ends[%g] : !gi
      // group_block_starts = group_starts // block_k * block_k
      %sb = arith.floordivsi %start, %block_k : i32
      %bs = arith.muli %sb, %block_k : i32
      // group_block_ends = -(group_ends // -block_k) * block_k
      %ceil = arith.ceildivsi %e, %block_k : i32
      %be = arith.muli %ceil, %block_k : i32
      %nbk = arith.subi %be, %bs : i32
      %nb = arith.floordivsi %nbk, %block_k : i32
      memref.store %bs, %group_block_starts[%g] : !gi
      memref.store %nb, %group_num_blocks[%g] : !gi
      scf.yield %e : i32
    }
    func.call @kernel(%group_sizes, %group_starts, %group_ends, %group_num_blocks,
                      %group_block_starts, %lhs, %rhs, %out)
        : (!gi, !gi, !gi, !gi, !gi, !lhs_t, !rhs_t, !out_t) -> ()
    memref.dealloc %group_starts : !gi
    memref.dealloc %group_ends : !gi
    memref.dealloc %group_block_starts : !gi
    memref.dealloc %group_num_blocks : !gi
    return
  }

  // (x * mul + y) mod 3 - 1.
  func.func @small(%x: index, %y: index, %mul: index) -> f16 {
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %t = arith.muli %x, %mul : index
    %s = arith.addi %t, %y : index
    %m = arith.remui %s, %c3 : index
    %d = arith.subi %m, %c1 : index
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f16
    return %f : f16
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %f0 = arith.constant 0.0 : f32
    %lhs = memref.alloc() : !lhs_t
    %rhs = memref.alloc() : !rhs_t
    scf.for %k = %c0 to %c256 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %x = func.call @small(%k, %j, %c2) : (index, index, index) -> f16
        memref.store %x, %lhs[%k, %j] : !lhs_t
        %y = func.call @small(%k, %j, %c5) : (index, index, index) -> f16
        memref.store %y, %rhs[%k, %j] : !rhs_t
      }
    }
    // group_sizes = [40, 0, 100, 116]: boundaries at rows 40 and 140.
    %group_sizes = memref.alloc() : !gi
    %s0 = arith.constant 40 : i32
    %s1 = arith.constant 0 : i32
    %s2 = arith.constant 100 : i32
    %s3 = arith.constant 116 : i32
    %c3 = arith.constant 3 : index
    memref.store %s0, %group_sizes[%c0] : !gi
    memref.store %s1, %group_sizes[%c1] : !gi
    memref.store %s2, %group_sizes[%c2] : !gi
    memref.store %s3, %group_sizes[%c3] : !gi
    %out = memref.alloc() : !out_t
    func.call @transposed_ragged_dot(%lhs, %rhs, %group_sizes, %out)
        : (!lhs_t, !rhs_t, !gi, !out_t) -> ()
    // ref_transposed_ragged_dot: out[g, i, j] = sum over the rows k of
    // group g of lhs[k, i] * rhs[k, j].
    %bad = scf.for %g = %c0 to %c4 step %c1 iter_args(%n0 = %c0) -> index {
      %gs = scf.for %h = %c0 to %g step %c1 iter_args(%a = %c0) -> index {
        %sz = memref.load %group_sizes[%h] : !gi
        %szi = arith.index_cast %sz : i32 to index
        %a2 = arith.addi %a, %szi : index
        scf.yield %a2 : index
      }
      %sz = memref.load %group_sizes[%g] : !gi
      %szi = arith.index_cast %sz : i32 to index
      %ge = arith.addi %gs, %szi : index
      %n3 = scf.for %i = %c0 to %c128 step %c1 iter_args(%n1 = %n0) -> index {
        %n4 = scf.for %j = %c0 to %c128 step %c1 iter_args(%n2 = %n1) -> index {
          %sum = scf.for %k = %gs to %ge step %c1 iter_args(%s = %f0) -> f32 {
            %x = memref.load %lhs[%k, %i] : !lhs_t
            %y = memref.load %rhs[%k, %j] : !rhs_t
            %xf = arith.extf %x : f16 to f32
            %yf = arith.extf %y : f16 to f32
            %p = arith.mulf %xf, %yf : f32
            %t = arith.addf %s, %p : f32
            scf.yield %t : f32
          }
          %got = memref.load %out[%g, %i, %j] : !out_t
          %gotf = arith.extf %got : f16 to f32
          %ne = arith.cmpf une, %gotf, %sum : f32
          %inc = arith.select %ne, %c1, %c0 : index
          %n5 = arith.addi %n2, %inc : index
          scf.yield %n5 : index
        }
        scf.yield %n4 : index
      }
      scf.yield %n3 : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    memref.dealloc %lhs : !lhs_t
    memref.dealloc %rhs : !rhs_t
    memref.dealloc %group_sizes : !gi
    memref.dealloc %out : !out_t
    return
  }
}
