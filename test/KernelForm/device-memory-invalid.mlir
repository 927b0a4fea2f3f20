// RUN: mgpu-opt --mgpu-device-memory %s -split-input-file -verify-diagnostics
// RUN: not mgpu-opt --mgpu-device-memory=target=disk %s -split-input-file 2>&1 | FileCheck %s --check-prefix=TARGET

// TARGET: error: --mgpu-device-memory: unknown target 'disk' (expected gpu or host)

!device = memref<256xf32, #gpu.address_space<global>>

// Host code reads device memory itself.
func.func @host_load(%d: !device) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' op reads or writes device memory (#gpu.address_space<global>) in host code; copy it to host memory with memref.copy first}}
  %v = memref.load %d[%c0] : !device
  return %v : f32
}

// -----

!device = memref<256xf32, #gpu.address_space<global>>

func.func @host_fill(%d: !device) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'linalg.fill' op reads or writes device memory}}
  linalg.fill ins(%zero : f32) outs(%d : !device)
  return
}

// -----

func.func @on_stack() {
  // expected-error @+1 {{'memref.alloca' op cannot place device memory (#gpu.address_space<global>) on the stack; use memref.alloc}}
  %d = memref.alloca() : memref<4xf32, #gpu.address_space<global>>
  return
}

// -----

!device = memref<4x4xf32, #gpu.address_space<global>>

func.func @strided_copy(%d: !device, %h: memref<8x8xf32>) {
  %view = memref.subview %h[0, 0] [4, 4] [1, 1]
      : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  // expected-error @+1 {{'memref.copy' op copies between host and device memory need memrefs with the identity layout, got 'memref<4x4xf32, strided<[8, 1]>>'}}
  memref.copy %view, %d : memref<4x4xf32, strided<[8, 1]>> to !device
  return
}

// -----

// Shared memory exists only in kernels: a host function taking it is refused
// with a location (upstream's memref lowering printed an unlocated error and
// the pipeline exited 0; found by the fuzzer).
// expected-error @+1 {{'func.func' op argument #0 is a 'memref<64xf32, #gpu.address_space<workgroup>>': workgroup and private memory exist only in kernel bodies, not in host functions}}
func.func @outside(%s: memref<64xf32, #gpu.address_space<workgroup>>, %a: memref<64xf32>) {
  return
}
