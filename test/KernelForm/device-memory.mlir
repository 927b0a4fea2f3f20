// RUN: mgpu-opt --mgpu-device-memory %s | FileCheck %s --check-prefix=GPU
// RUN: mgpu-opt --mgpu-device-memory=target=host %s | FileCheck %s --check-prefix=HOST
// RUN: mgpu-opt --mgpu-device-memory %s | mgpu-opt | FileCheck %s --check-prefix=GPU
// RUN: mgpu-opt --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu %s | FileCheck %s --check-prefix=LAUNCH

// Device memory (#gpu.address_space<global>) in host code: allocation,
// copies and frees become gpu ops, each waited for, on the GPU; they stay
// host memory operations in interpret mode. Either way the memory space
// leaves every host type.

!device = memref<256xf32, #gpu.address_space<global>>

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>

// GPU-LABEL: func.func @round_trip(
// GPU-SAME: %[[BUF:.*]]: memref<256xf32>) {
// GPU: %[[T0:.*]] = gpu.wait async
// GPU-NEXT: %[[DEV:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<256xf32>
// GPU-NEXT: gpu.wait [%[[T1]]]
// GPU: %[[T2:.*]] = gpu.wait async
// GPU-NEXT: %[[T3:.*]] = gpu.memcpy async [%[[T2]]] %[[DEV]], %[[BUF]] : memref<256xf32>, memref<256xf32>
// GPU-NEXT: gpu.wait [%[[T3]]]
// GPU: call @use(%[[DEV]]) : (memref<256xf32>) -> ()
// GPU: gpu.memcpy async [%{{.*}}] %[[BUF]], %[[DEV]]
// GPU: gpu.dealloc async [%{{.*}}] %[[DEV]] : memref<256xf32>
// GPU-NOT: address_space<global>

// HOST-LABEL: func.func @round_trip(
// HOST: %[[DEV:.*]] = memref.alloc() : memref<256xf32>
// HOST-NEXT: memref.copy %{{.*}}, %[[DEV]] : memref<256xf32> to memref<256xf32>
// HOST-NEXT: call @use(%[[DEV]]) : (memref<256xf32>) -> ()
// HOST-NEXT: memref.copy %[[DEV]], %{{.*}} : memref<256xf32> to memref<256xf32>
// HOST-NEXT: memref.dealloc %[[DEV]] : memref<256xf32>
// HOST-NOT: {{ gpu\.}}
// HOST-NOT: address_space<global>
func.func private @use(!device)

func.func @round_trip(%host: memref<256xf32>) {
  %device = memref.alloc() : !device
  memref.copy %host, %device : memref<256xf32> to !device
  func.call @use(%device) : (!device) -> ()
  memref.copy %device, %host : !device to memref<256xf32>
  memref.dealloc %device : !device
  return
}

// A launch on device memory takes it as it is: no device copy, no copy
// back and no host wait; a host operand beside it is copied and waited for.
// LAUNCH-LABEL: func.func @launch(
// LAUNCH-SAME: %[[X:.*]]: memref<256xf32, #gpu.address_space<global>>, %[[Y:.*]]: memref<256xf32, #gpu.address_space<global>>)
// LAUNCH: %[[T:.*]] = gpu.wait async
// LAUNCH-NOT: gpu.alloc
// LAUNCH-NOT: gpu.memcpy
// LAUNCH: gpu.launch async [%[[T]]]
// LAUNCH-NOT: gpu.wait [
// LAUNCH: return
func.func @launch(%x: !device, %y: !device) {
  mgpu.pallas_call grid [2] ins(%x : !device) outs(%y : !device)
      in_specs [#block] out_specs [#block] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %ys: memref<128xf32, #gpu.address_space<workgroup>>):
    memref.copy %xs, %ys : memref<128xf32, #gpu.address_space<workgroup>>
        to memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}

// The host output is only written by the kernel (Pallas never reads an
// output block unless it aliases an input): allocated, not copied in.
// LAUNCH-LABEL: func.func @mixed(
// LAUNCH: gpu.alloc async
// LAUNCH-NOT: gpu.memcpy
// LAUNCH: gpu.launch async
// LAUNCH: gpu.memcpy async
// LAUNCH: gpu.wait [
func.func @mixed(%x: !device, %y: memref<256xf32>) {
  mgpu.pallas_call grid [2] ins(%x : !device) outs(%y : memref<256xf32>)
      in_specs [#block] out_specs [#block] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %ys: memref<128xf32, #gpu.address_space<workgroup>>):
    memref.copy %xs, %ys : memref<128xf32, #gpu.address_space<workgroup>>
        to memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}
