// Contractions and wgmma ops that stay off the tensor cores say why, as
// missed-optimization remarks of category mgpu-tensor-cores (MLIR's remark
// engine: --remarks-filter-missed selects them, --remark-format=emitRemark
// prints them as diagnostics). Nothing is reported without the filter.
// RUN: mgpu-opt %s -split-input-file --mgpu-contract-to-wgmma --mgpu-select-tensor-cores --remarks-filter-missed=mgpu-tensor-cores --remark-format=emitRemark -verify-diagnostics
// RUN: sed "/expected-remark/d" %s | mgpu-opt -split-input-file --mgpu-contract-to-wgmma --mgpu-select-tensor-cores 2>&1 | FileCheck %s --check-prefix=QUIET
// mgpu-run reports them with --tensor-core-remarks:
// RUN: mgpu-run %S/../Integration/Kernels/matmul.mlir -e main --backend=emulate --tensor-core-remarks 2>&1 | FileCheck %s --check-prefix=TOOL
// QUIET-NOT: remark
// TOOL: matmul.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: [Missed] LaneContraction | Category:mgpu-tensor-cores:contract-to-wgmma | Reason="this contraction stays on the lanes: inputs are not f16 or bf16"

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!smem32 = memref<64x16xf32, #gpu.address_space<workgroup>>
func.func @f32_contraction() {
  mgpu.mpmd_map meshes [#m] scratch [!smem32, memref<16x16xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%a: !smem32, %b: memref<16x16xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : !smem32, vector<64x16xf32>
    %vb = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<16x16xf32>
    %acc = arith.constant dense<0.0> : vector<64x16xf32>
    // expected-remark @below {{[Missed] LaneContraction | Category:mgpu-tensor-cores:contract-to-wgmma | Reason="this contraction stays on the lanes: inputs are not f16 or bf16"}}
    %r = vector.contract {
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %acc : vector<64x16xf32>, vector<16x16xf32> into vector<64x16xf32>
    vector.transfer_write %r, %a[%c0, %c0] {in_bounds = [true, true]} : vector<64x16xf32>, !smem32
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!a = memref<256x16xf16, #gpu.address_space<workgroup>>
!b = memref<16x128xf16, #gpu.address_space<workgroup>>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @big_accumulator() {
    mgpu.mpmd_map meshes [#m] scratch [!a, !b] {
    ^bb0(%a: !a, %b: !b):
      %acc = arith.constant dense<0.0> : vector<256x128xf32>
      // expected-remark @below {{[Missed] OrdinaryInstructions | Category:mgpu-tensor-cores:select-tensor-cores | Reason="this wgmma runs on ordinary instructions: its accumulator vector<256x128xf32> takes 131072 bytes, over the 65536 a warpgroup's registers hold"}}
      %r = mgpu.wgmma %acc, %a, %b : vector<256x128xf32>, !a, !b
      mgpu.wgmma_wait 0
    }
    return
  }
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!a = memref<64x16xf16, #gpu.address_space<workgroup>>
!b = memref<16x64xf16, #gpu.address_space<workgroup>>
module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @no_wgmma() {
    mgpu.mpmd_map meshes [#m] scratch [!a, !b] {
    ^bb0(%a: !a, %b: !b):
      %acc = arith.constant dense<0.0> : vector<64x64xf32>
      // expected-remark @below {{[Missed] OrdinaryInstructions | Category:mgpu-tensor-cores:select-tensor-cores | Reason="this wgmma runs on ordinary instructions: the target chip sm_80 has no wgmma"}}
      %r = mgpu.wgmma %acc, %a, %b : vector<64x64xf32>, !a, !b
      mgpu.wgmma_wait 0
    }
    return
  }
}

// -----

// On Blackwell the remark names the way to its tensor cores: a JAX-shaped
// dot (made wgmma) stays on the lanes there, tcgen05_mma does not.
#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!a = memref<64x16xf16, #gpu.address_space<workgroup>>
!b = memref<16x64xf16, #gpu.address_space<workgroup>>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @blackwell_wgmma() {
    mgpu.mpmd_map meshes [#m] scratch [!a, !b] {
    ^bb0(%a: !a, %b: !b):
      %acc = arith.constant dense<0.0> : vector<64x64xf32>
      // expected-remark @below {{[Missed] OrdinaryInstructions | Category:mgpu-tensor-cores:select-tensor-cores | Reason="this wgmma runs on ordinary instructions: the target chip sm_100a has no wgmma; its tensor cores run mgpu.tcgen05_mma, with the accumulator in tensor memory (!mgpu.tmem)"}}
      %r = mgpu.wgmma %acc, %a, %b : vector<64x64xf32>, !a, !b
      mgpu.wgmma_wait 0
    }
    return
  }
}
