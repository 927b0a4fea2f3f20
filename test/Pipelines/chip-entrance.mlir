// The GPU pipeline's chip= enters once: --mgpu-set-target, its first pass,
// writes it into the module's mgpu.target, which every later pass reads. A
// module without mgpu.target compiled with chip=sm_100a used to get sm_90a
// decisions in the kernel form (this wgmma marked for Hopper's tensor
// cores) and sm_100a ones in the NVVM lowering, whose wgmma.mma_async
// ptxas then refused for sm_100a.
// RUN: mgpu-opt %s --mgpu-set-target=chip=sm_100a | FileCheck %s --check-prefix=TARGET
// RUN: mgpu-opt %s --mgpu-set-target=chip=sm_100a --mgpu-select-tensor-cores | FileCheck %s --check-prefix=SELECT
// RUN: mgpu-opt %s --mgpu-to-binary="chip=sm_100a format=isa" --remarks-filter-missed=mgpu-tensor-cores --remark-format=emitRemark -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %extract_ptx %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: not mgpu-opt %s --mgpu-set-target=chip=sm_95 2>&1 | FileCheck %s --check-prefix=BAD

// TARGET: #target = #mgpu.target<chip = "sm_100a">
// TARGET: module attributes {mgpu.target = #target}
// SELECT-NOT: mgpu.tensor_cores
// SELECT: mgpu.wgmma
// SELECT-NOT: mgpu.tensor_cores
// REMARK: remark: {{.*}}this wgmma runs on ordinary instructions: the target chip sm_100a has no wgmma
// PTX: .target sm_100a
// PTX-NOT: wgmma.mma_async
// BAD: error: mgpu-set-target: unknown chip 'sm_95'
// BAD: note: the chips are sm_80, sm_90, sm_90a, sm_100, sm_100a

#a = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#b = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
!smem = memref<64x64xbf16, #gpu.address_space<workgroup>>
!out = memref<64x64xf32, #gpu.address_space<workgroup>>
func.func @matmul(%a: memref<128x64xbf16>, %b: memref<64x64xbf16>, %c: memref<128x64xf32>) {
  mgpu.pallas_call grid [2] ins(%a, %b : memref<128x64xbf16>, memref<64x64xbf16>)
      outs(%c : memref<128x64xf32>) in_specs [#a, #b] out_specs [#a] {
  ^bb0(%as: !smem, %bs: !smem, %cs: !out):
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %r = mgpu.wgmma %zero, %as, %bs : vector<64x64xf32>, !smem, !smem
    mgpu.wgmma_wait 0
    vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !out
  }
  return
}
