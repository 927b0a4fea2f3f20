// plgpu.set_max_registers as JAX's hand-written warp specialization uses it
// (attention_mgpu.py's forward kernel: the compute warpgroups raise their
// budget to 232 registers, the memory warpgroup lowers its own to 40), in a
// 3-warpgroup kernel of 4 programs whose compute warpgroups each scale
// their half of a row by num_programs * 10 + axis_size("wg") (43): every
// backend gives the same numbers (the budget is the GPU's alone), and the
// PTX holds one setmaxnreg of each kind, which ptxas accepts for sm_90a.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK: mismatches: 0

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#whole = #mgpu.block_spec<shape = [4, 256], index_map = affine_map<(i, t) -> (0, 0)>, memory_space = gmem>

func.func @scale(%x: memref<4x256xf32>, %o: memref<4x256xf32>) {
  mgpu.pallas_call grid [4, 3] ins(%x : memref<4x256xf32>) outs(%o : memref<4x256xf32>)
      in_specs [#whole] out_specs [#whole] mesh #mesh {
  ^bb0(%xg: memref<4x256xf32>, %og: memref<4x256xf32>):
    %c2 = arith.constant 2 : index
    %c10 = arith.constant 10 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %wg = mgpu.axis_index "wg"
    %compute = arith.cmpi ult, %wg, %c2 : index
    scf.if %compute {
      mgpu.set_max_registers 232 increase
      %i = mgpu.program_id 0
      %n = mgpu.num_programs 0
      %threads = mgpu.axis_size "wg"
      %n10 = arith.muli %n, %c10 : index
      %k = arith.addi %n10, %threads : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %scale = vector.broadcast %kf : f32 to vector<128xf32>
      %col = arith.muli %wg, %c128 : index
      %v = vector.transfer_read %xg[%i, %col], %pad {in_bounds = [true]}
          : memref<4x256xf32>, vector<128xf32>
      %r = arith.mulf %v, %scale : vector<128xf32>
      vector.transfer_write %r, %og[%i, %col] {in_bounds = [true]}
          : vector<128xf32>, memref<4x256xf32>
    } else {
      mgpu.set_max_registers 40 decrease
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %f43 = arith.constant 43.0 : f32
  %x = memref.alloc() : memref<4x256xf32>
  %o = memref.alloc() : memref<4x256xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c256 step %c1 {
      %ij = arith.muli %i, %c256 : index
      %s = arith.addi %ij, %j : index
      %si = arith.index_cast %s : index to i32
      %sf = arith.sitofp %si : i32 to f32
      memref.store %sf, %x[%i, %j] : memref<4x256xf32>
    }
  }
  func.call @scale(%x, %o) : (memref<4x256xf32>, memref<4x256xf32>) -> ()
  %bad = scf.for %i = %c0 to %c4 step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %c256 step %c1 iter_args(%cnt = %count) -> index {
      %v = memref.load %x[%i, %j] : memref<4x256xf32>
      %want = arith.mulf %v, %f43 : f32
      %got = memref.load %o[%i, %j] : memref<4x256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %next = arith.addi %cnt, %inc : index
      scf.yield %next : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  memref.dealloc %x : memref<4x256xf32>
  memref.dealloc %o : memref<4x256xf32>
  return
}
