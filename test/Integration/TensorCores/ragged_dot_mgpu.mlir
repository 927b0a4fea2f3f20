// jax/experimental/pallas/ops/gpu/ragged_dot_mgpu.py, written line for
// line (transpose_rhs = False): out[rows of group g] = lhs[rows of group g]
// @ rhs[g] (lhs M x K, rhs G x K x N, the M rows split into G groups of
// uneven sizes). A plgpu.kernel over grid (num_sms,) "sm" (an mpmd_map with
// one mesh), a persistent nd_loop over grid_m * grid_n tiles with a planar
// snake, grid_m = cdiv(m, block_m) + g - 1: each m tile index is one
// (group, block of block_m rows) pair that GroupInfo.create finds with the
// selects of its loop over the groups (read from GMEM as scalars); a tile
// past the last pair, or one of an empty group, gets actual_size 0. Per
// tile a run_scoped ACC and an emit_pipeline over the K blocks of the
// group's block of lhs and the group's rhs[g] (delay_release = 1; the
// index maps capture group_info.block and ni: index_map_symbols), one
// wgmma per step. Epilogue: the accumulator as f16 into a run_scoped
// o_smem, then the logarithmic ladder of TMA stores (lines 215-229): for
// each power of two 64, 32, .., 1, under pl.when(actual_size & rows != 0),
// the rows o_smem.at[pl.ds(smem_start, rows)] out to
// o.at[pl.ds(block_start + smem_start, rows), pl.ds(ni * block_n, block_n)],
// smem_start moving on by actual_size & rows; then wait_smem_to_gmem(0,
// wait_read_only=True).
// Sizes: M = 256, K = 128, N = 128, G = 5 groups of sizes 40, 0, 88, 37,
// 91 (boundaries at rows 40, 40, 128, 165: group 0 is 40 rows of block 0;
// group 1 is empty, inside block 0, and still owns a tile that stores
// nothing; group 2 starts inside block 0 and ends at the edge of block 1,
// so m tile 4 belongs to no group; groups 3 and 4 share block 2 at row 37
// of it; every rung of the ladder stores: 40 = 32 + 8, 24 = 16 + 8,
// 37 = 32 + 4 + 1, 27 = 16 + 8 + 2 + 1, 64). block_m = block_n = block_k =
// 64, max_concurrent_steps = 2, grid_block_n = 2, grid_m = 8, grid_n = 2,
// 2 programs for the SMs. Inputs are small integers, so every sum is exact
// in f16; the output starts as NaN, so a row no store reaches mismatches.
// Changed:
// 1. GroupInfo.create's Python loop over the groups (lines 60-75,
//    unrolled at trace time) is an scf.for over G carrying start (the
//    last end), block, group, group_start and group_end; the body is the
//    same selects.
// 2. The Python while loop of the store ladder (lines 215-228) is unrolled
//    by hand, as JAX's trace unrolls it: rows = 64, 32, 16, 8, 4, 2, 1.
// transpose_rhs = True (lines 140-147: rhs is (G, N, K), its spec
// lambda k: (ni, k), b the transpose_ref of the (N, K) slot) is the same
// file through sed (the TRANS runs): b read K-major in place, with the
// transforms inferred for the transposed view too.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 4 %s | FileCheck %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MMA --implicit-check-not=ld.shared < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// RUN: sed -e 's/-> (k, ni)>/-> (ni, k)>/' -e 's/%%rhs\[%%g, %%k, %%j\]/%%rhs[%%g, %%j, %%k]/' -e 's/%%next = mgpu.wgmma %%acc_in, %%lhs_smem, %%rhs_smem/%%rhs_t = memref.transpose %%rhs_smem (r, c) -> (c, r) : !blk to !blk_t\n            %%next = mgpu.wgmma %%acc_in, %%lhs_smem, %%rhs_t/' -e 's/: vector<64x64xf32>, !blk, !blk$/: vector<64x64xf32>, !blk, !blk_t/' %s > %t.trans.mlir
// RUN: %run_on_backends %t.trans.mlir --match-full-lines
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %t.trans.mlir | %extract_ptx | FileCheck %s --check-prefix=TRANS --implicit-check-not=ld.shared
// TRANS-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
// TRANS-NOT: wgmma.mma_async
// lhs and rhs blocks come in by TMA (rhs through a 3-d tensor map of rhs,
// the group one element of the box), the rows go out by TMA.
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// 4 MMAs of K = 16 per step, a K-major and b N-major in place (the last
// two immediates: imm-trans-a = 0, imm-trans-b = 1); no lane reads a slot
// (no ld.shared: nothing is copied into place).
// MMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// MMA-NOT: wgmma.mma_async
// CHECK: mismatches: 0

#mesh = #mgpu.mesh<grid = [2], grid_names = ["sm"]>
#compiler_params = #mgpu.compiler_params<lowering_semantics = warpgroup>
// BlockSpec((block_m, block_k), lambda k: (group_info.block, k),
// delay_release=1), BlockSpec((block_k, block_n), lambda k: (k, ni),
// delay_release=1); no transforms, as in JAX: mgpu infers them for the
// wgmma operands as JAX's warpgroup semantics does ((8, 64) tiles, 128-byte
// swizzle), so both blocks are read in place.
#lhs_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k)[block, ni] -> (block, k)>,
                             delay_release = 1>
#rhs_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k)[block, ni] -> (k, ni)>,
                             delay_release = 1>
#stages = #mgpu.compiler_params<max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>
!lhs_t = memref<256x128xf16>
!rhs_t = memref<5x128x128xf16>
!out_t = memref<256x128xf16>
!gi = memref<5xi32>
!blk = memref<64x64xf16, #smem>
!blk_t = memref<64x64xf16, strided<[1, 64]>, #smem>
// lhs_gmem.at[pl.ds(block * block_m, block_m)], rhs_gmem.at[group_id, :,
// pl.ds(ni * block_n, block_n)].
!rhs_g = memref<128x128xf16, strided<[128, 1], offset: ?>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @ragged_dot(%group_sizes: !gi, %lhs: !lhs_t, %rhs: !rhs_t,
                        %out: !out_t) {
    mgpu.mpmd_map meshes [#mesh]
        ins(%group_sizes, %lhs, %rhs : !gi, !lhs_t, !rhs_t)
        outs(%out : !out_t) params #compiler_params {
    ^bb0(%rows_per_expert_gmem: !gi, %lhs_gmem: !lhs_t, %rhs_gmem: !rhs_t,
         %o_gmem: !out_t):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %c64 = arith.constant 64 : index
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      // grid_m = cdiv(m, block_m) + g - 1, grid_n = cdiv(n, block_n)
      %grid_m = arith.constant 8 : index
      %grid_n = arith.constant 2 : index
      %grid = arith.muli %grid_m, %grid_n : index
      mgpu.nd_loop [%grid] collective_axes ["sm"] {
      ^bb0(%lin: index, %local: index):
        %mi, %ni = mgpu.planar_snake %lin in [%grid_m, %grid_n] minor_dim 1 tile_width 2

        // group_info = GroupInfo.create(rows_per_expert_gmem, block_m, mi)
        %tile = arith.constant 64 : i32
        %tid = arith.index_cast %mi : index to i32
        %gi:5 = scf.for %i = %c0 to %c5 step %c1
            iter_args(%start = %i0, %block0 = %i0, %group0 = %i0,
                      %group_start0 = %i0, %group_end0 = %i0) -> (i32, i32, i32, i32, i32) {
          %b = memref.load %rows_per_expert_gmem[%i] : !gi
          %i32 = arith.index_cast %i : index to i32
          // Start/end are inclusive; start = end (of the previous group)
          %end = arith.addi %start, %b : i32
          %final = arith.subi %end, %i1 : i32
          %start_block = arith.divsi %start, %tile : i32
          %final_block = arith.divsi %final, %tile : i32
          %block_end = arith.addi %final_block, %i1 : i32
          %tid_begin = arith.addi %start_block, %i32 : i32
          %tid_end = arith.addi %block_end, %i32 : i32
          // How many blocks after is our block?
          %after_begin = arith.cmpi sle, %tid_begin, %tid : i32
          %before_end = arith.cmpi slt, %tid, %tid_end : i32
          %this_is_group = arith.andi %after_begin, %before_end : i1
          %off = arith.subi %tid, %tid_begin : i32
          %blk_i = arith.addi %off, %start_block : i32
          %block = arith.select %this_is_group, %blk_i, %block0 : i32
          %group = arith.select %this_is_group, %i32, %group0 : i32
          %group_start = arith.select %this_is_group, %start, %group_start0 : i32
          %group_end = arith.select %this_is_group, %end, %group_end0 : i32
          scf.yield %end, %block, %group, %group_start, %group_end : i32, i32, i32, i32, i32
        }
        %block = arith.index_cast %gi#1 : i32 to index
        %group_id = arith.index_cast %gi#2 : i32 to index
        %block_start = arith.muli %gi#1, %tile : i32
        %actual_start = arith.maxsi %gi#3, %block_start : i32
        %block_stop = arith.addi %block_start, %tile : i32
        %actual_end = arith.minsi %gi#4, %block_stop : i32
        %start_within_block = arith.subi %actual_start, %block_start : i32
        %actual_size = arith.subi %actual_end, %actual_start : i32

        %n_start = arith.muli %ni, %c64 : index
        // rhs_gmem.at[group_info.group_id]
        %rhs_g = memref.subview %rhs_gmem[%group_id, 0, 0] [1, 128, 128] [1, 1, 1]
            : !rhs_t to !rhs_g

        %acc = mgpu.run_scoped -> vector<64x64xf32> {
        ^bb0(%acc_ref: vector<64x64xf32>):
          // grid = (k // block_k,)
          %r = mgpu.emit_pipeline grid [2]
              ins(%lhs_gmem, %rhs_g : !lhs_t, !rhs_g)
              init_carry(%acc_ref : vector<64x64xf32>)
              in_specs [#lhs_spec, #rhs_spec] out_specs []
              index_map_symbols(%block, %ni) params #stages
              -> vector<64x64xf32> {
          ^bb0(%k: index, %lhs_smem: !blk, %rhs_smem: !blk, %acc_in: vector<64x64xf32>):
            %next = mgpu.wgmma %acc_in, %lhs_smem, %rhs_smem
                : vector<64x64xf32>, !blk, !blk
            mgpu.yield %next : vector<64x64xf32>
          }
          mgpu.yield %r : vector<64x64xf32>
        }

        mgpu.run_scoped {
        ^bb0(%o_smem: !blk):
          %acc16 = arith.truncf %acc : vector<64x64xf32> to vector<64x64xf16>
          vector.transfer_write %acc16, %o_smem[%c0, %c0] {in_bounds = [true, true]}
              : vector<64x64xf16>, !blk
          mgpu.commit_smem

          // smem_start = group_info.start_within_block;
          // remaining_rows = min(block_m, m) = 64: the ladder 64, 32, .., 1.
          %row0 = arith.index_cast %block_start : i32 to index
          %ss0 = arith.index_cast %start_within_block : i32 to index

          %r64 = arith.constant 64 : i32
          %a64 = arith.andi %actual_size, %r64 : i32
          %w64 = arith.cmpi ne, %a64, %i0 : i32
          scf.if %w64 {
            %os = memref.subview %o_smem[%ss0, 0] [64, 64] [1, 1]
                : !blk to memref<64x64xf16, strided<[64, 1], offset: ?>, #smem>
            %row = arith.addi %row0, %ss0 : index
            %og = memref.subview %o_gmem[%row, %n_start] [64, 64] [1, 1]
                : !out_t to memref<64x64xf16, strided<[128, 1], offset: ?>>
            mgpu.copy_smem_to_gmem %os, %og
                : memref<64x64xf16, strided<[64, 1], offset: ?>, #smem>,
                  memref<64x64xf16, strided<[128, 1], offset: ?>>
          }
          %d64 = arith.index_cast %a64 : i32 to index
          %ss1 = arith.addi %ss0, %d64 : index

          %r32 = arith.constant 32 : i32
          %a32 = arith.andi %actual_size, %r32 : i32
          %w32 = arith.cmpi ne, %a32, %i0 : i32
          scf.if %w32 {
            %os = memref.subview %o_smem[%ss1, 0] [32, 64] [1, 1]
                : !blk to memref<32x64xf16, strided<[64, 1], offset: ?>, #smem>
            %row = arith.addi %row0, %ss1 : index
            %og = memref.subview %o_gmem[%row, %n_start] [32, 64] [1, 1]
                : !out_t to memref<32x64xf16, strided<[128, 1], offset: ?>>
            mgpu.copy_smem_to_gmem %os, %og
                : memref<32x64xf16, strided<[64, 1], offset: ?>, #smem>,
                  memref<32x64xf16, strided<[128, 1], offset: ?>>
          }
          %d32 = arith.index_cast %a32 : i32 to index
          %ss2 = arith.addi %ss1, %d32 : index

          %r16 = arith.constant 16 : i32
          %a16 = arith.andi %actual_size, %r16 : i32
          %w16 = arith.cmpi ne, %a16, %i0 : i32
          scf.if %w16 {
            %os = memref.subview %o_smem[%ss2, 0] [16, 64] [1, 1]
                : !blk to memref<16x64xf16, strided<[64, 1], offset: ?>, #smem>
            %row = arith.addi %row0, %ss2 : index
            %og = memref.subview %o_gmem[%row, %n_start] [16, 64] [1, 1]
                : !out_t to memref<16x64xf16, strided<[128, 1], offset: ?>>
            mgpu.copy_smem_to_gmem %os, %og
                : memref<16x64xf16, strided<[64, 1], offset: ?>, #smem>,
                  memref<16x64xf16, strided<[128, 1], offset: ?>>
          }
          %d16 = arith.index_cast %a16 : i32 to index
          %ss3 = arith.addi %ss2, %d16 : index

          %r8 = arith.constant 8 : i32
          %a8 = arith.andi %actual_size, %r8 : i32
          %w8 = arith.cmpi ne, %a8, %i0 : i32
          scf.if %w8 {
            %os = memref.subview %o_smem[%ss3, 0] [8, 64] [1, 1]
                : !blk to memref<8x64xf16, strided<[64, 1], offset: ?>, #smem>
            %row = arith.addi %row0, %ss3 : index
            %og = memref.subview %o_gmem[%row, %n_start] [8, 64] [1, 1]
                : !out_t to memref<8x64xf16, strided<[128, 1], offset: ?>>
            mgpu.copy_smem_to_gmem %os, %og
                : memref<8x64xf16, strided<[64, 1], offset: ?>, #smem>,
                  memref<8x64xf16, strided<[128, 1], offset: ?>>
          }
          %d8 = arith.index_cast %a8 : i32 to index
          %ss4 = arith.addi %ss3, %d8 : index

          %r4 = arith.constant 4 : i32
          %a4 = arith.andi %actual_size, %r4 : i32
          %w4 = arith.cmpi ne, %a4, %i0 : i32
          scf.if %w4 {
            %os = memref.subview %o_smem[%ss4, 0] [4, 64] [1, 1]
                : !blk to memref<4x64xf16, strided<[64, 1], offset: ?>, #smem>
            %row = arith.addi %row0, %ss4 : index
            %og = memref.subview %o_gmem[%row, %n_start] [4, 64] [1, 1]
                : !out_t to memref<4x64xf16, strided<[128, 1], offset: ?>>
            mgpu.copy_smem_to_gmem %os, %og
                : memref<4x64xf16, strided<[64, 1], offset: ?>, #smem>,
                  memref<4x64xf16, strided<[128, 1], offset: ?>>
          }
          %d4 = arith.index_cast %a4 : i32 to index
          %ss5 = arith.addi %ss4, %d4 : index

          %r2 = arith.constant 2 : i32
          %a2 = arith.andi %actual_size, %r2 : i32
          %w2 = arith.cmpi ne, %a2, %i0 : i32
          scf.if %w2 {
            %os = memref.subview %o_smem[%ss5, 0] [2, 64] [1, 1]
                : !blk to memref<2x64xf16, strided<[64, 1], offset: ?>, #smem>
            %row = arith.addi %row0, %ss5 : index
            %og = memref.subview %o_gmem[%row, %n_start] [2, 64] [1, 1]
                : !out_t to memref<2x64xf16, strided<[128, 1], offset: ?>>
            mgpu.copy_smem_to_gmem %os, %og
                : memref<2x64xf16, strided<[64, 1], offset: ?>, #smem>,
                  memref<2x64xf16, strided<[128, 1], offset: ?>>
          }
          %d2 = arith.index_cast %a2 : i32 to index
          %ss6 = arith.addi %ss5, %d2 : index

          %r1 = arith.constant 1 : i32
          %a1 = arith.andi %actual_size, %r1 : i32
          %w1 = arith.cmpi ne, %a1, %i0 : i32
          scf.if %w1 {
            %os = memref.subview %o_smem[%ss6, 0] [1, 64] [1, 1]
                : !blk to memref<1x64xf16, strided<[64, 1], offset: ?>, #smem>
            %row = arith.addi %row0, %ss6 : index
            %og = memref.subview %o_gmem[%row, %n_start] [1, 64] [1, 1]
                : !out_t to memref<1x64xf16, strided<[128, 1], offset: ?>>
            mgpu.copy_smem_to_gmem %os, %og
                : memref<1x64xf16, strided<[64, 1], offset: ?>, #smem>,
                  memref<1x64xf16, strided<[128, 1], offset: ?>>
          }
          mgpu.wait_smem_to_gmem 0 read_only
        }
      }
    }
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
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %f0 = arith.constant 0.0 : f32
    %nan = arith.constant 0x7E00 : f16
    %lhs = memref.alloc() : !lhs_t
    %rhs = memref.alloc() : !rhs_t
    %out = memref.alloc() : !out_t
    scf.for %m = %c0 to %c256 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %x = func.call @small(%m, %k, %c2) : (index, index, index) -> f16
        memref.store %x, %lhs[%m, %k] : !lhs_t
      }
      scf.for %n = %c0 to %c128 step %c1 {
        memref.store %nan, %out[%m, %n] : !out_t
      }
    }
    scf.for %g = %c0 to %c5 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        scf.for %n = %c0 to %c128 step %c1 {
          %gk = arith.addi %k, %g : index
          %gn = arith.muli %g, %c7 : index
          %n2 = arith.addi %n, %gn : index
          %y = func.call @small(%gk, %n2, %c5) : (index, index, index) -> f16
          memref.store %y, %rhs[%g, %k, %n] : !rhs_t
        }
      }
    }
    // group_sizes = [40, 0, 88, 37, 91]: boundaries at rows 40, 40, 128, 165.
    %group_sizes = memref.alloc() : !gi
    %s0 = arith.constant 40 : i32
    %s1 = arith.constant 0 : i32
    %s2 = arith.constant 88 : i32
    %s3 = arith.constant 37 : i32
    %s4 = arith.constant 91 : i32
    memref.store %s0, %group_sizes[%c0] : !gi
    memref.store %s1, %group_sizes[%c1] : !gi
    memref.store %s2, %group_sizes[%c2] : !gi
    memref.store %s3, %group_sizes[%c3] : !gi
    memref.store %s4, %group_sizes[%c4] : !gi
    func.call @ragged_dot(%group_sizes, %lhs, %rhs, %out)
        : (!gi, !lhs_t, !rhs_t, !out_t) -> ()
    // ref_ragged_dot (jax.lax.ragged_dot): out[i, j] = sum over k of
    // lhs[i, k] * rhs[g, k, j], g the group of row i.
    %bad = scf.for %g = %c0 to %c5 step %c1 iter_args(%n0 = %c0) -> index {
      %gs = scf.for %h = %c0 to %g step %c1 iter_args(%a = %c0) -> index {
        %sz = memref.load %group_sizes[%h] : !gi
        %szi = arith.index_cast %sz : i32 to index
        %a2 = arith.addi %a, %szi : index
        scf.yield %a2 : index
      }
      %sz = memref.load %group_sizes[%g] : !gi
      %szi = arith.index_cast %sz : i32 to index
      %ge = arith.addi %gs, %szi : index
      %n3 = scf.for %i = %gs to %ge step %c1 iter_args(%n1 = %n0) -> index {
        %n4 = scf.for %j = %c0 to %c128 step %c1 iter_args(%n2 = %n1) -> index {
          %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %f0) -> f32 {
            %x = memref.load %lhs[%i, %k] : !lhs_t
            %y = memref.load %rhs[%g, %k, %j] : !rhs_t
            %xf = arith.extf %x : f16 to f32
            %yf = arith.extf %y : f16 to f32
            %p = arith.mulf %xf, %yf : f32
            %t = arith.addf %s, %p : f32
            scf.yield %t : f32
          }
          %got = memref.load %out[%i, %j] : !out_t
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
