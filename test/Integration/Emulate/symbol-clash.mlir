// The emulator's helpers never meet the user's symbols: user functions
// named like its barrier helper and its lane functions keep their names and
// bodies (the helpers are renamed), a gpu.container_module with a gpu.module of its own keeps its
// attribute, and a user symbol shadowing the host runtime's mgpuEmuYield
// (the barrier helper's step), whose name cannot change, is refused at its
// location (exit code 1) instead of being called with the wrong arguments.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-bufferize --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-device-memory --mgpu-emulate-gpu | FileCheck %s --check-prefix=IR
// RUN: sed 's/@my_yield/@mgpuEmuYield/g' %s > %t.mlir
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=SHADOW

// IR: module attributes {gpu.container_module}
// IR: gpu.module @extra
// IR: func.func @__mgpu_emu_barrier() -> i32
// IR: func.func @__mgpu_emu_lanes() -> i32
// IR: call @mgpuEmuRunGrid(%{{.*}}, %{{.*}}
// IR: func.func private @__mgpu_emu_barrier_{{[0-9]+}}(%{{.*}}: memref<?xi64>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: i64)
// IR: func.func private @__mgpu_emu_lanes_{{[0-9]+}}(%{{.*}}: !llvm.ptr,
// IR: call @__mgpu_emu_barrier_{{[0-9]+}}(

// SHADOW: error: the GPU emulator needs 'mgpuEmuYield' to be the host runtime's function of type '() -> ()', which this symbol shadows; rename it
// SHADOW-NEXT: func.func @mgpuEmuYield(%x: f32) -> f32 {

// CHECK: 128
// CHECK-NEXT: 128
// CHECK-NEXT: 1
// CHECK-NEXT: 7
// CHECK-NEXT: 9

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [sequential]>
module attributes {gpu.container_module} {
  gpu.module @extra {
    gpu.func @noop() kernel { gpu.return }
  }
  func.func @my_yield(%x: f32) -> f32 {
    return %x : f32
  }
  func.func @__mgpu_emu_barrier() -> i32 {
    %c = arith.constant 7 : i32
    return %c : i32
  }
  func.func @__mgpu_emu_lanes() -> i32 {
    %c = arith.constant 9 : i32
    return %c : i32
  }
  func.func @k(%a: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.pallas_call grid [2] ins(%a : memref<256xf32>) outs(%o : memref<256xf32>)
        in_specs [#blk] out_specs [#blk] params #params {
    ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>, %y: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %v = vector.load %x[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %r = vector.reduction <add>, %v : vector<128xf32> into f32
      %b = vector.broadcast %r : f32 to vector<128xf32>
      vector.store %b, %y[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    }
    return
  }
  func.func @main() {
    %a = memref.alloc() : memref<256xf32>
    %o = memref.alloc() : memref<256xf32>
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%a : memref<256xf32>)
    func.call @k(%a, %o) : (memref<256xf32>, memref<256xf32>) -> ()
    %c0 = arith.constant 0 : index
    %c200 = arith.constant 200 : index
    %v0 = memref.load %o[%c0] : memref<256xf32>
    %v1 = memref.load %o[%c200] : memref<256xf32>
    vector.print %v0 : f32
    vector.print %v1 : f32
    %y = func.call @my_yield(%one) : (f32) -> f32
    vector.print %y : f32
    %z = func.call @__mgpu_emu_barrier() : () -> i32
    vector.print %z : i32
    %w = func.call @__mgpu_emu_lanes() : () -> i32
    vector.print %w : i32
    return
  }
}
