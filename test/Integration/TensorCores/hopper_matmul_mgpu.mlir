// jax/experimental/pallas/ops/gpu/hopper_matmul_mgpu.py, written line for
// line: a warp-specialized pipeline (2 compute warpgroups and a memory one,
// 40 registers for it) whose compute threads each carry a 128 x 128 f32
// accumulator in registers through the K steps (JAX's compute_context: a
// run_scoped plgpu.ACC around eval_pipeline, here mgpu.eval_pipeline, and
// the epilogue, all on the compute threads), each reading its
// 128 rows of the 256-row a block at a run-time offset (a_smem.at[wg_m_slice])
// in place on the tensor cores, over a persistent nd_loop with a planar
// snake, and a tiled epilogue: 64 x 64 pieces of the f16 accumulator out
// through two shared slots per warpgroup, each waited for with
// wait_smem_to_gmem(1, wait_read_only=True) before it is rewritten.
// Changed: smaller sizes (M = 512, N = 256, K = 256, 2 programs for the SMs);
// no get_allocations / run_scoped(collective_axes="wg") (mgpu allocates the
// pipeline's slots and barriers once per kernel; a later run of the
// pipeline continues their phases); the epilogue's Python loops unrolled;
// out_smem's transforms are named on its copies out (mgpu names transforms
// per op); the lanes write each 64 x 64 piece through them, as JAX's do
// (until mgpu let whole-view lane accesses go through a layout, out_smem
// was row-major). Inputs are small integers, so
// every sum is exact in f16.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// The accumulator stays in the compute threads' 232 registers: no spills.
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: mismatches: 0

#mesh = #mgpu.mesh<grid = [2], grid_names = ["sm"], num_threads = 3, thread_name = "wg">
#whole_a = #mgpu.block_spec<shape = [512, 256], index_map = affine_map<(s, t) -> (0, 0)>, memory_space = gmem>
#whole_b = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(s, t) -> (0, 0)>, memory_space = gmem>
#whole_c = #mgpu.block_spec<shape = [512, 256], index_map = affine_map<(s, t) -> (0, 0)>, memory_space = gmem>
#a_k = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
// out_smem's transforms: TilingTransform((8, 64)), SwizzleTransform(128).
#out_sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
#stages = #mgpu.compiler_params<max_concurrent_steps = 4>
#ws = #mgpu.warp_specialization<memory_registers = 40>
!out_smem = memref<2x2x64x64xf16, #gpu.address_space<workgroup>>
!a_block = memref<256x64xf16, #gpu.address_space<workgroup>>
!b_block = memref<64x128xf16, #gpu.address_space<workgroup>>
!a_mine = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!a_rows = memref<256x256xf16, strided<[256, 1], offset: ?>>
!b_cols = memref<256x128xf16, strided<[256, 1], offset: ?>>
!epi = memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!out_tile = memref<64x64xf16, strided<[256, 1], offset: ?>>

func.func @hopper_matmul(%a: memref<512x256xf16>, %b: memref<256x256xf16>,
                         %c: memref<512x256xf16>) {
  mgpu.pallas_call grid [2, 3]
      ins(%a, %b : memref<512x256xf16>, memref<256x256xf16>)
      outs(%c : memref<512x256xf16>)
      in_specs [#whole_a, #whole_b] out_specs [#whole_c] scratch [!out_smem] mesh #mesh {
  ^bb0(%a_gmem: memref<512x256xf16>, %b_gmem: memref<256x256xf16>,
       %out_gmem: memref<512x256xf16>, %out_smem: !out_smem):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %wg_idx = mgpu.axis_index "wg"
    mgpu.nd_loop [%c4] collective_axes ["sm"] {
    ^bb0(%lin_idx: index, %local: index):
      %m_idx, %n_idx = mgpu.planar_snake %lin_idx in [%c2, %c2] minor_dim 1 tile_width 1
      %m_start = arith.muli %m_idx, %c256 : index
      %wg_m = arith.muli %wg_idx, %c128 : index
      %n_start = arith.muli %n_idx, %c128 : index
      %a_rows = memref.subview %a_gmem[%m_start, 0] [256, 256] [1, 1]
          : memref<512x256xf16> to !a_rows
      %b_cols = memref.subview %b_gmem[0, %n_start] [256, 128] [1, 1]
          : memref<256x256xf16> to !b_cols
      mgpu.emit_pipeline grid [4]
          ins(%a_rows, %b_cols : !a_rows, !b_cols)
          in_specs [#a_k, #b_k] out_specs [] params #stages
          warp_specialization #ws {
      ^bb0(%k: index, %a_smem: !a_block, %b_smem: !b_block, %acc: vector<128x128xf32>):
        %a_wg = memref.subview %a_smem[%wg_m, 0] [128, 64] [1, 1] : !a_block to !a_mine
        %next = mgpu.wgmma %acc, %a_wg, %b_smem : vector<128x128xf32>, !a_mine, !b_block
        mgpu.wgmma_wait 0
        mgpu.yield %next : vector<128x128xf32>
      } compute_context {
        mgpu.run_scoped {
        ^bb0(%acc_init: vector<128x128xf32>):
        %acc_ref = mgpu.eval_pipeline(%acc_init : vector<128x128xf32>)
        %acc = arith.truncf %acc_ref : vector<128x128xf32> to vector<128x128xf16>
        mgpu.wait_smem_to_gmem 0 read_only
        %row0 = arith.addi %m_start, %wg_m : index
        %row1 = arith.addi %row0, %c64 : index
        %col1 = arith.addi %n_start, %c64 : index
        // epi_mi = 0, epi_ni = 0: slot 0.
        mgpu.wait_smem_to_gmem 1 read_only
        %p00 = vector.extract_strided_slice %acc {offsets = [0, 0], sizes = [64, 64], strides = [1, 1]} : vector<128x128xf16> to vector<64x64xf16>
        %s00 = memref.subview %out_smem[%wg_idx, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : !out_smem to !epi
        vector.transfer_write %p00, %s00[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, !epi
        mgpu.commit_smem
        %g00 = memref.subview %out_gmem[%row0, %n_start] [64, 64] [1, 1] : memref<512x256xf16> to !out_tile
        mgpu.copy_smem_to_gmem %s00, %g00 transforms #out_sw : !epi, !out_tile
        // epi_mi = 0, epi_ni = 1: slot 1.
        mgpu.wait_smem_to_gmem 1 read_only
        %p01 = vector.extract_strided_slice %acc {offsets = [0, 64], sizes = [64, 64], strides = [1, 1]} : vector<128x128xf16> to vector<64x64xf16>
        %s01 = memref.subview %out_smem[%wg_idx, 1, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : !out_smem to !epi
        vector.transfer_write %p01, %s01[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, !epi
        mgpu.commit_smem
        %g01 = memref.subview %out_gmem[%row0, %col1] [64, 64] [1, 1] : memref<512x256xf16> to !out_tile
        mgpu.copy_smem_to_gmem %s01, %g01 transforms #out_sw : !epi, !out_tile
        // epi_mi = 1, epi_ni = 0: slot 0.
        mgpu.wait_smem_to_gmem 1 read_only
        %p10 = vector.extract_strided_slice %acc {offsets = [64, 0], sizes = [64, 64], strides = [1, 1]} : vector<128x128xf16> to vector<64x64xf16>
        vector.transfer_write %p10, %s00[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, !epi
        mgpu.commit_smem
        %g10 = memref.subview %out_gmem[%row1, %n_start] [64, 64] [1, 1] : memref<512x256xf16> to !out_tile
        mgpu.copy_smem_to_gmem %s00, %g10 transforms #out_sw : !epi, !out_tile
        // epi_mi = 1, epi_ni = 1: slot 1.
        mgpu.wait_smem_to_gmem 1 read_only
        %p11 = vector.extract_strided_slice %acc {offsets = [64, 64], sizes = [64, 64], strides = [1, 1]} : vector<128x128xf16> to vector<64x64xf16>
        vector.transfer_write %p11, %s01[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, !epi
        mgpu.commit_smem
        %g11 = memref.subview %out_gmem[%row1, %col1] [64, 64] [1, 1] : memref<512x256xf16> to !out_tile
        mgpu.copy_smem_to_gmem %s01, %g11 transforms #out_sw : !epi, !out_tile
        }
      }
    }
    // Await all transfers before we exit.
    mgpu.wait_smem_to_gmem 0 read_only
  }
  return
}

// (x * mul + y) mod 3 - 1.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c3 : index
  %d = arith.subi %m, %c1 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %m = arith.constant 512 : index
  %n = arith.constant 256 : index
  %kn = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<512x256xf16>
  %b = memref.alloc() : memref<256x256xf16>
  %c = memref.alloc() : memref<512x256xf16>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
      %xh = arith.truncf %x : f32 to f16
      memref.store %xh, %a[%i, %k] : memref<512x256xf16>
    }
  }
  scf.for %k = %c0 to %kn step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %y = func.call @small(%k, %j, %c5) : (index, index, index) -> f32
      %yh = arith.truncf %y : f32 to f16
      memref.store %yh, %b[%k, %j] : memref<256x256xf16>
    }
  }
  func.call @hopper_matmul(%a, %b, %c) : (memref<512x256xf16>, memref<256x256xf16>, memref<512x256xf16>) -> ()
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%cnt = %count) -> index {
      %sum = scf.for %k = %c0 to %kn step %c1 iter_args(%s = %f0) -> f32 {
        %x = memref.load %a[%i, %k] : memref<512x256xf16>
        %y = memref.load %b[%k, %j] : memref<256x256xf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %got = memref.load %c[%i, %j] : memref<512x256xf16>
      %gotf = arith.extf %got : f16 to f32
      %ne = arith.cmpf une, %gotf, %sum : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %cnt2 = arith.addi %cnt, %inc : index
      scf.yield %cnt2 : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  return
}
