// A dynamic scheduling loop on sm_90a: a while loop whose next tile comes
// from lane 0's atomic add on the global counter (atom.global.add), its
// result broadcast to the warpgroup through shared memory; ptxas accepts it
// without spills.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX-LABEL: .entry dynamic_kernel
// PTX: mov.u32 {{.*}}%ctaid.x
// PTX: bar.sync 1, 128;
// PTX-NEXT: ld.shared.b32
// PTX: atom.global.add.u32

#mesh = #mgpu.mesh<grid = [3], grid_names = ["p"]>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                        affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"],
       kind = #vector.kind<add>}

module {
  func.func @dynamic(%a: memref<64x32xf32>, %b: memref<32x48xf32>,
                     %c: memref<64x48xf32>, %visits: memref<4x3xi32>,
                     %steps: memref<3xi32>) {
    mgpu.mpmd_map meshes [#mesh] ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>)
        outs(%c, %visits, %steps : memref<64x48xf32>, memref<4x3xi32>, memref<3xi32>)
        scratch [memref<1xi32>] {
    ^bb0(%ag: memref<64x32xf32>, %bg: memref<32x48xf32>, %cg: memref<64x48xf32>,
         %vg: memref<4x3xi32>, %sg: memref<3xi32>, %count: memref<1xi32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %one = arith.constant 1 : i32
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<16x16xf32>
      %p = mgpu.axis_index "p"
      mgpu.dynamic_scheduling_loop [%c4, %c3] collective_axes ["p"]
          counter %count[%c0] : memref<1xi32> {
      ^bb0(%i: index, %j: index, %step: index):
        %row = arith.muli %i, %c16 : index
        %col = arith.muli %j, %c16 : index
        %va = vector.transfer_read %ag[%row, %c0], %pad {in_bounds = [true, true]}
            : memref<64x32xf32>, vector<16x32xf32>
        %vb = vector.transfer_read %bg[%c0, %col], %pad {in_bounds = [true, true]}
            : memref<32x48xf32>, vector<32x16xf32>
        %r = vector.contract #mm %va, %vb, %zero
            : vector<16x32xf32>, vector<32x16xf32> into vector<16x16xf32>
        vector.transfer_write %r, %cg[%row, %col] {in_bounds = [true, true]}
            : vector<16x16xf32>, memref<64x48xf32>
        %old = memref.atomic_rmw addi %one, %vg[%i, %j] : (i32, memref<4x3xi32>) -> i32
        %si = arith.index_cast %step : index to i32
        %n = arith.addi %si, %one : i32
        memref.store %n, %sg[%p] : memref<3xi32>
      }
    }
    return
  }
}
