// jax/experimental/pallas/ops/gpu/hopper_mixed_type_matmul_mgpu.py, written
// line for line at JAX's other tile_m: tile_m = 128, tile_n = 128,
// tile_k = 64, 4 stages, wg_dimension = M (a 256 x 128 CTA tile, 128 rows
// per compute warpgroup: two 64-row wgmma tiles each), 64 x 64 epilogue
// tiles (2 x 2 per warpgroup, alternating between its two slots). The
// structure is that of hopper_mixed_type_matmul_mgpu.mlir (tile_m = 64),
// which says what changed from JAX. a reaches the tensor cores from the
// registers it was widened in (PTX's register-A wgmma, mgpu.wgmma_register_a
// after the distribution): no shared-memory staging, so this point fits
// (4 stages: 160 KiB of shared memory) and runs with no spills.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// Register a: four 32-bit registers per MMA, b from its descriptor.
// PTX: wgmma.fence.sync.aligned;
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{[{]}}{{(%r[0-9]+, ){63}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// CHECK: mismatches: 0

#mesh = #mgpu.mesh<grid = [2], grid_names = ["sm"], num_threads = 3, thread_name = "wg">
#whole_a = #mgpu.block_spec<shape = [512, 256], index_map = affine_map<(s, t) -> (0, 0)>, memory_space = gmem>
#whole_b = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(s, t) -> (0, 0)>, memory_space = gmem>
#whole_c = #mgpu.block_spec<shape = [512, 256], index_map = affine_map<(s, t) -> (0, 0)>, memory_space = gmem>
#a_k = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<64>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#stages = #mgpu.compiler_params<max_concurrent_steps = 4>
#ws = #mgpu.warp_specialization<memory_registers = 40>
!out_smem = memref<2x2x64x64xbf16, #gpu.address_space<workgroup>>
!a_block = memref<256x64xi8, #gpu.address_space<workgroup>>
!b_block = memref<64x128xbf16, #gpu.address_space<workgroup>>
!a_mine = memref<128x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!a_rows = memref<256x256xi8, strided<[256, 1], offset: ?>>
!b_cols = memref<256x128xbf16, strided<[256, 1], offset: ?>>
!epi = memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!out_tile = memref<64x64xbf16, strided<[256, 1], offset: ?>>

func.func @mixed_matmul(%a: memref<512x256xi8>, %b: memref<256x256xbf16>,
                        %c: memref<512x256xbf16>) {
  mgpu.pallas_call grid [2, 3]
      ins(%a, %b : memref<512x256xi8>, memref<256x256xbf16>)
      outs(%c : memref<512x256xbf16>)
      in_specs [#whole_a, #whole_b] out_specs [#whole_c] scratch [!out_smem] mesh #mesh {
  ^bb0(%a_gmem: memref<512x256xi8>, %b_gmem: memref<256x256xbf16>,
       %out_gmem: memref<512x256xbf16>, %out_smem: !out_smem):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %wg_idx = mgpu.axis_index "wg"
    // m_iters * n_iters = 2 * 2 cluster tiles of 256 x 128.
    mgpu.nd_loop [%c4] collective_axes ["sm"] {
    ^bb0(%lin_idx: index, %local: index):
      %m_idx, %n_idx = mgpu.planar_snake %lin_idx in [%c2, %c2] minor_dim 1 tile_width 1
      // cta_m_slice, cta_n_slice, and wg_m_slice (wg_dimension = M).
      %m_start = arith.muli %m_idx, %c256 : index
      %n_start = arith.muli %n_idx, %c128 : index
      %wg_m = arith.muli %wg_idx, %c128 : index
      %a_rows = memref.subview %a_gmem[%m_start, 0] [256, 256] [1, 1]
          : memref<512x256xi8> to !a_rows
      %b_cols = memref.subview %b_gmem[0, %n_start] [256, 128] [1, 1]
          : memref<256x256xbf16> to !b_cols
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      mgpu.emit_pipeline grid [4]
          ins(%a_rows, %b_cols : !a_rows, !b_cols)
          init_carry(%zero : vector<128x128xf32>)
          in_specs [#a_k, #b_k] out_specs [] params #stages
          warp_specialization #ws -> vector<128x128xf32> {
      ^bb0(%k: index, %a_smem: !a_block, %b_smem: !b_block, %acc: vector<128x128xf32>):
        // smem_load: a_reg = a_smem[wg_m_slice]
        %a_wg = memref.subview %a_smem[%wg_m, 0] [128, 64] [1, 1] : !a_block to !a_mine
        %i0 = arith.constant 0 : i8
        %a_i8 = vector.transfer_read %a_wg[%c0, %c0], %i0 {in_bounds = [true, true]} : !a_mine, vector<128x64xi8>
        // dequant: a_reg.astype(b.dtype)
        %a_reg = arith.sitofp %a_i8 : vector<128x64xi8> to vector<128x64xbf16>
        // wgmma: plgpu.wgmma(acc_ref, a_reg, b_smem.at[:, wg_n_slice])
        %next = mgpu.wgmma %acc, %a_reg, %b_smem : vector<128x128xf32>, vector<128x64xbf16>, !b_block
        // wgmma_wait
        mgpu.wgmma_wait 0
        mgpu.yield %next : vector<128x128xf32>
      } compute_context {
      ^bb0(%acc_ref: vector<128x128xf32>):
        %acc = arith.truncf %acc_ref : vector<128x128xf32> to vector<128x128xbf16>
        mgpu.wait_smem_to_gmem 0 read_only
        %row0 = arith.addi %m_start, %wg_m : index
        %row1 = arith.addi %row0, %c64 : index
        %col1 = arith.addi %n_start, %c64 : index
        // epi_mi = 0, epi_ni = 0: slot 0.
        mgpu.wait_smem_to_gmem 1 read_only
        %p00 = vector.extract_strided_slice %acc {offsets = [0, 0], sizes = [64, 64], strides = [1, 1]} : vector<128x128xbf16> to vector<64x64xbf16>
        %s00 = memref.subview %out_smem[%wg_idx, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : !out_smem to !epi
        vector.transfer_write %p00, %s00[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xbf16>, !epi
        mgpu.commit_smem
        %g00 = memref.subview %out_gmem[%row0, %n_start] [64, 64] [1, 1] : memref<512x256xbf16> to !out_tile
        mgpu.copy_smem_to_gmem %s00, %g00 : !epi, !out_tile
        // epi_mi = 0, epi_ni = 1: slot 1.
        mgpu.wait_smem_to_gmem 1 read_only
        %p01 = vector.extract_strided_slice %acc {offsets = [0, 64], sizes = [64, 64], strides = [1, 1]} : vector<128x128xbf16> to vector<64x64xbf16>
        %s01 = memref.subview %out_smem[%wg_idx, 1, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : !out_smem to !epi
        vector.transfer_write %p01, %s01[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xbf16>, !epi
        mgpu.commit_smem
        %g01 = memref.subview %out_gmem[%row0, %col1] [64, 64] [1, 1] : memref<512x256xbf16> to !out_tile
        mgpu.copy_smem_to_gmem %s01, %g01 : !epi, !out_tile
        // epi_mi = 1, epi_ni = 0: slot 0.
        mgpu.wait_smem_to_gmem 1 read_only
        %p10 = vector.extract_strided_slice %acc {offsets = [64, 0], sizes = [64, 64], strides = [1, 1]} : vector<128x128xbf16> to vector<64x64xbf16>
        %s10 = memref.subview %out_smem[%wg_idx, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : !out_smem to !epi
        vector.transfer_write %p10, %s10[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xbf16>, !epi
        mgpu.commit_smem
        %g10 = memref.subview %out_gmem[%row1, %n_start] [64, 64] [1, 1] : memref<512x256xbf16> to !out_tile
        mgpu.copy_smem_to_gmem %s10, %g10 : !epi, !out_tile
        // epi_mi = 1, epi_ni = 1: slot 1.
        mgpu.wait_smem_to_gmem 1 read_only
        %p11 = vector.extract_strided_slice %acc {offsets = [64, 64], sizes = [64, 64], strides = [1, 1]} : vector<128x128xbf16> to vector<64x64xbf16>
        %s11 = memref.subview %out_smem[%wg_idx, 1, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : !out_smem to !epi
        vector.transfer_write %p11, %s11[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xbf16>, !epi
        mgpu.commit_smem
        %g11 = memref.subview %out_gmem[%row1, %col1] [64, 64] [1, 1] : memref<512x256xbf16> to !out_tile
        mgpu.copy_smem_to_gmem %s11, %g11 : !epi, !out_tile
      }
    }
    // Await all transfers before we exit.
    mgpu.wait_smem_to_gmem 0 read_only
  }
  return
}

// (x * mul + y) mod m - off, as an f32.
func.func @small(%x: index, %y: index, %mul: index, %m: index, %off: index) -> f32 {
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %r = arith.remui %s, %m : index
  %d = arith.subi %r, %off : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c127 = arith.constant 127 : index
  %c255 = arith.constant 255 : index
  %m = arith.constant 512 : index
  %n = arith.constant 256 : index
  %kn = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<512x256xi8>
  %b = memref.alloc() : memref<256x256xbf16>
  %c = memref.alloc() : memref<512x256xbf16>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %x = func.call @small(%i, %k, %c3, %c255, %c127) : (index, index, index, index, index) -> f32
      %xi = arith.fptosi %x : f32 to i8
      memref.store %xi, %a[%i, %k] : memref<512x256xi8>
    }
  }
  scf.for %k = %c0 to %kn step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %y = func.call @small(%k, %j, %c5, %c3, %c1) : (index, index, index, index, index) -> f32
      %yh = arith.truncf %y : f32 to bf16
      memref.store %yh, %b[%k, %j] : memref<256x256xbf16>
    }
  }
  func.call @mixed_matmul(%a, %b, %c) : (memref<512x256xi8>, memref<256x256xbf16>, memref<512x256xbf16>) -> ()
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%cnt = %count) -> index {
      %sum = scf.for %k = %c0 to %kn step %c1 iter_args(%s = %f0) -> f32 {
        %x = memref.load %a[%i, %k] : memref<512x256xi8>
        %y = memref.load %b[%k, %j] : memref<256x256xbf16>
        %xf = arith.sitofp %x : i8 to f32
        %yf = arith.extf %y : bf16 to f32
        %p = arith.mulf %xf, %yf : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %want = arith.truncf %sum : f32 to bf16
      %got = memref.load %c[%i, %j] : memref<512x256xbf16>
      %ne = arith.cmpf une, %got, %want : bf16
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
