// Every example kernel (the files of examples/, utils/examples.py) parses,
// verifies and round-trips through mgpu-opt, and goes through the whole
// interpret pipeline (--mgpu-to-cpu); README's table of examples is the one
// examples/ makes. Some examples' printed forms are checked below. The run
// tests with inputs and reference results are in test/Integration.

// RUN: %python %mgpu_src_root/utils/examples.py check-readme %mgpu_src_root/README.md
// RUN: %python %mgpu_src_root/utils/examples.py compile --mgpu-opt mgpu-opt --roundtrip --cpu | FileCheck %s --check-prefix=ALL
// ALL: examples.py: {{[1-9][0-9]*}} examples, 0 failures

// RUN: mgpu-opt %mgpu_src_root/examples/scale_in_place.mlir | mgpu-opt | FileCheck %s --check-prefix=SCALE
// RUN: mgpu-opt %mgpu_src_root/examples/elementwise_2d.mlir | mgpu-opt | FileCheck %s --check-prefix=EW2D
// RUN: mgpu-opt %mgpu_src_root/examples/row_reduction.mlir | mgpu-opt | FileCheck %s --check-prefix=ROWRED
// RUN: mgpu-opt %mgpu_src_root/examples/softmax.mlir | mgpu-opt | FileCheck %s --check-prefix=SOFTMAX
// RUN: mgpu-opt %mgpu_src_root/examples/matmul.mlir | mgpu-opt | FileCheck %s --check-prefix=MATMUL
// RUN: mgpu-opt %mgpu_src_root/examples/threads.mlir | mgpu-opt | FileCheck %s --check-prefix=THREADS
// RUN: mgpu-opt %mgpu_src_root/examples/cluster.mlir | mgpu-opt | FileCheck %s --check-prefix=CLUSTER
// RUN: mgpu-opt %mgpu_src_root/examples/dynamic_grid.mlir | mgpu-opt | FileCheck %s --check-prefix=DYN
// RUN: mgpu-opt %mgpu_src_root/examples/matmul_bf16.mlir | mgpu-opt | FileCheck %s --check-prefix=MMBF16
// RUN: mgpu-opt %mgpu_src_root/examples/attention.mlir | mgpu-opt | FileCheck %s --check-prefix=ATTN

// ATTN-LABEL: func.func @attention
// ATTN: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x64xf32>, memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, strided<[1, 64]>, #gpu.address_space<workgroup>>
// ATTN: math.exp
// ATTN: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x64xf32>, vector<64x64xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>

// MMBF16-LABEL: func.func @matmul_bf16
// MMBF16: mgpu.emit_pipeline grid [4]
// MMBF16: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x128xf32>, memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>
// MMBF16: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x128xf32>, memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>
// MMBF16: mgpu.wgmma_wait 0

// RUN: mgpu-opt %mgpu_src_root/examples/hand_pipelined.mlir | mgpu-opt | FileCheck %s --check-prefix=HAND
// RUN: mgpu-opt %mgpu_src_root/examples/warp_specialized.mlir | mgpu-opt | FileCheck %s --check-prefix=WS

// HAND-LABEL: func.func @row_sums
// HAND: mgpu.emit_pipeline grid [4]
// WS-LABEL: func.func @stream
// WS: mgpu.copy_gmem_to_smem
// WS: mgpu.barrier_arrive


// SCALE: func.func @scale_in_place(%[[X:.*]]: tensor<1024xf32>)
// SCALE: mgpu.pallas_call grid [8] ins(%[[X]] : tensor<1024xf32>) outs(%[[X]] : tensor<1024xf32>)

// EW2D: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// EW2D: #mgpu.block_spec<shape = [16, 32], index_map = #[[T]]>
// EW2D-LABEL: func.func @elementwise_2d
// EW2D: mgpu.pallas_call grid [3, 4]
// EW2D: vector.transpose

// ROWRED: #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>
// ROWRED-LABEL: func.func @row_reduction
// ROWRED: mgpu.program_id 1
// ROWRED: vector.multi_reduction <add>

// SOFTMAX-LABEL: func.func @softmax
// SOFTMAX: vector.multi_reduction <maximumf>
// SOFTMAX: math.exp
// SOFTMAX: arith.divf

// MATMUL-LABEL: func.func @matmul
// MATMUL: mgpu.pallas_call grid [4, 3, 4]
// MATMUL: vector.contract

// THREADS: #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
// THREADS-LABEL: func.func @threads
// THREADS: mgpu.pallas_call grid [4, 2]
// THREADS: mgpu.axis_index "wg"

// CLUSTER: #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
// CLUSTER-LABEL: func.func @cluster
// CLUSTER: mgpu.pallas_call grid [4, 2]
// CLUSTER: mgpu.axis_index "c"

// DYN-LABEL: func.func @dynamic_grid
// DYN: %[[N:.*]] = arith.ceildivui
// DYN: mgpu.pallas_call grid [%[[N]]] ins(%{{.*}} : tensor<?xf32>)
