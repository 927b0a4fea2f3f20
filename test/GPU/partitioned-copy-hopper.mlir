// A partitioned copy (a pair's, for Blackwell's collective MMAs) compiled
// for Hopper fails at the op: TMA's cta_group::2 does not exist there.
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_90a" -verify-diagnostics

#m = #mgpu.mesh<grid = [1], grid_names = ["i"], cluster = [2], cluster_names = ["x"]>
!a = memref<128x64xbf16, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
func.func @pair(%ag: memref<256x64xbf16>) {
  mgpu.mpmd_map meshes [#m] ins(%ag : memref<256x64xbf16>) scratch [!a, !bar] {
  ^bb0(%a_g: memref<256x64xbf16>, %as: !a, %full: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op is partitioned between a pair of CTAs, for Blackwell's collective MMAs: compile for chip=sm_100a}}
    mgpu.copy_gmem_to_smem %a_g[0, 0], %as, %full[%c0]
        collective_axes ["x"] partitioned 0 : memref<256x64xbf16>, !a, !bar
    mgpu.barrier_wait %full[%c0] : !bar
  }
  return
}
