// The examples referenced from the README parse, verify and round-trip.
// RUN: mgpu-opt %mgpu_src_root/examples/vector_add.mlir | mgpu-opt | FileCheck %s --check-prefix=ADD
// RUN: mgpu-opt %mgpu_src_root/examples/producer_consumer.mlir | mgpu-opt | FileCheck %s --check-prefix=PC
// RUN: not mgpu-opt --mgpu-split-mpmd %mgpu_src_root/examples/producer_consumer.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %mgpu_src_root/examples/demo.sh %mgpu_obj_root | FileCheck %s --check-prefix=DEMO

// ADD-LABEL: func.func @vector_add
// ADD: mgpu.pallas_call grid [4] ins(%{{.*}}, %{{.*}} : tensor<1024xf32>, tensor<1024xf32>) outs(%{{.*}} : tensor<1024xf32>)
// ADD: arith.addf %{{.*}}, %{{.*}} : vector<256xf32>
// ADD: } -> tensor<1024xf32>

// PC-LABEL: func.func @producer_consumer
// PC: mgpu.mpmd_map meshes [#mesh, #mesh1] ins(%{{.*}} : memref<128xf32>) outs(%{{.*}} : memref<128xf32>) scratch [memref<1xi32>]
// PC: mgpu.semaphore_signal
// PC: }, {
// PC: mgpu.semaphore_wait

// SPLIT: error: 'mgpu.semaphore_wait' op synchronizes regions #0 and #1

// DEMO: error: Lowering multiple mesh/function pairs is not supported by the Mosaic GPU backend
// DEMO: ok: 2 mesh/function pairs in one mpmd_map
// DEMO: cannot split it
