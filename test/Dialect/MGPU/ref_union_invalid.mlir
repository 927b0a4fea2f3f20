// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// A RefUnion's ref (a memref.view of a byte buffer) must lie inside the
// buffer when its shift and sizes are known: 512 f32 are 2048 bytes, and
// only 1024 follow byte 1024.
#ws = #gpu.address_space<workgroup>
func.func @overrun(%o: memref<128xf32>) {
  mgpu.pallas_call grid [1] outs(%o : memref<128xf32>) in_specs [] out_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>] scratch [memref<2048xi8, #ws>] {
  ^bb0(%og: memref<128xf32>, %u: memref<2048xi8, #ws>):
    %c1024 = arith.constant 1024 : index
    // expected-error @below {{'memref.view' op views 2048 bytes at byte 1024, outside its 2048-byte buffer}}
    %r = memref.view %u[%c1024][] : memref<2048xi8, #ws> to memref<512xf32, #ws>
  }
  return
}

// -----

// A negative shift.
#ws = #gpu.address_space<workgroup>
func.func @negative(%o: memref<128xf32>) {
  mgpu.pallas_call grid [1] outs(%o : memref<128xf32>) in_specs [] out_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>] scratch [memref<2048xi8, #ws>] {
  ^bb0(%og: memref<128xf32>, %u: memref<2048xi8, #ws>):
    %back = arith.constant -16 : index
    // expected-error @below {{'memref.view' op views 512 bytes at byte -16, outside its 2048-byte buffer}}
    %r = memref.view %u[%back][] : memref<2048xi8, #ws> to memref<128xf32, #ws>
  }
  return
}

// -----

// In run_scoped too; a uint4 ref counts half a byte per element (2048
// nibbles are 1024 bytes, which fit at 1024 of 2048; 2050 would not).
#m = #mgpu.mesh<grid = [1], grid_names = ["g"]>
#ws = #gpu.address_space<workgroup>
func.func @nibbles() {
  mgpu.mpmd_map meshes [#m] {
    mgpu.run_scoped {
    ^bb0(%u: memref<2048xi8, #ws>):
      %c1024 = arith.constant 1024 : index
      %fits = memref.view %u[%c1024][] : memref<2048xi8, #ws> to memref<2048xi4, #ws>
      // expected-error @below {{'memref.view' op views 1025 bytes at byte 1024, outside its 2048-byte buffer}}
      %over = memref.view %u[%c1024][] : memref<2048xi8, #ws> to memref<2050xi4, #ws>
    }
  }
  return
}
