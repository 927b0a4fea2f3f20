// The Blackwell ops assemble for sm_100a: one warp allocates the TMEM
// scratch (128 columns) and gives up its permit, one thread issues the
// tcgen05 MMAs (4 of K 16 per 64-wide step) with their descriptors and
// commits them to the barrier, every lane reads its TMEM row (32x32b, 32
// columns at a time, each piece stored straight into the output block) and
// waits, and the first warp frees the tensor memory at the end.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="chip=sm_100a format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=DESC < %t.ptx
// The same kernel for Hopper: no tensor memory there.
// RUN: not mgpu-opt --mgpu-to-binary="chip=sm_90a format=isa" %s 2>&1 | FileCheck %s --check-prefix=HOPPER
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The shared-memory descriptors: b N-major (LBO 8192 = a 64x64 tile, SBO
// 1024 = 8 rows of 128 bytes, version 1, 128-byte swizzle), a K-major
// (LBO 16, SBO 1024); the instruction descriptor: f32 accumulator, bf16
// a and b, b N-major, N = 128, M = 128.
// PTX-LABEL: .entry
// DESC: or.b64 {{.*}}, 4611756662083026944;
// DESC: or.b64 {{.*}}, 4611756662049538048;
// PTX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [__dynamic_shmem__0], %r{{[0-9]+}};
// PTX: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// PTX: tcgen05.fence::after_thread_sync;
// PTX: mov.b32 %r{{[0-9]+}}, 136381584;
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, %p{{[0-9]+}};
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one
// The wait for the commit's barrier, then the fence that orders the TMEM
// loads after it (the loads could read the accumulator before the MMAs'
// results without it; JAX waits with orders_tensor_core).
// PTX: mbarrier.try_wait.parity
// PTX-NOT: tcgen05.ld
// PTX: tcgen05.fence::after_thread_sync;
// PTX-NOT: mbarrier
// PTX-COUNT-4: tcgen05.ld.sync.aligned.32x32b.x32.b32
// PTX: tcgen05.wait::ld.sync.aligned;
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r{{[0-9]+}}, %r{{[0-9]+}};
// HOPPER: error: 'mgpu.tmem_alloc' op needs Blackwell's tensor cores (tcgen05, tensor memory): compile for chip=sm_100a

#a_k = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#c_all = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(k) -> (0, 0)>>
#seq = #mgpu.compiler_params<dimension_semantics = [sequential]>
#smem = #gpu.address_space<workgroup>
!acc = !mgpu.tmem<128x128xf32>
!bar = !mgpu.barrier<count = 1>

func.func @matmul(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %c: memref<128x128xf32>) {
  mgpu.pallas_call grid [2]
      ins(%a, %b : memref<128x128xbf16>, memref<128x128xbf16>) outs(%c : memref<128x128xf32>)
      in_specs [#a_k, #b_k] out_specs [#c_all] scratch [!acc, !bar] params #seq {
  ^bb0(%as: memref<128x64xbf16, #smem>, %bs: memref<64x128xbf16, #smem>,
       %cs: memref<128x128xf32, #smem>, %tmem: !acc, %done: !bar):
    %c0 = arith.constant 0 : index
    %k = mgpu.program_id 0
    %later = arith.cmpi ne, %k, %c0 : index
    mgpu.tcgen05_mma %tmem, %as, %bs accumulate(%later)
        a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : !acc, memref<128x64xbf16, #smem>, memref<64x128xbf16, #smem>
    mgpu.tcgen05_commit_arrive %done[%c0] : !bar
    mgpu.barrier_wait %done[%c0] : !bar
    %v = mgpu.async_load_tmem %tmem : !acc -> vector<128x128xf32>
    mgpu.wait_load_tmem
    vector.transfer_write %v, %cs[%c0, %c0] {in_bounds = [true, true]}
        : vector<128x128xf32>, memref<128x128xf32, #smem>
  }
  return
}
