// RUN: mgpu-opt --mgpu-direct-blocks --split-input-file %s | FileCheck %s
// RUN: mgpu-opt --mgpu-direct-blocks --split-input-file %s | mgpu-opt --split-input-file -o /dev/null
// RUN: mgpu-opt --mgpu-direct-blocks --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --split-input-file %s | FileCheck %s --check-prefix=GPU

#b = #mgpu.block_spec<shape = [1, 256], index_map = affine_map<(i, j) -> (j, i)>>
#p = #mgpu.compiler_params<dimension_semantics = [parallel, parallel]>

// A lane-local body: each block becomes the whole array in global memory,
// viewed at the block's offset (index map times window), lane-private.
// CHECK-DAG: #[[WHOLE:.*]] = #mgpu.block_spec<shape = [8, 1024], index_map = #{{.*}}, memory_space = gmem>
// CHECK-LABEL: func.func @add(
// CHECK: mgpu.pallas_call grid [4, 8] {{.*}} in_specs [#[[WHOLE]], #[[WHOLE]]] out_specs [#[[WHOLE]]]
// CHECK-NEXT: ^bb0(%[[X:.*]]: memref<8x1024xf32>, %[[Y:.*]]: memref<8x1024xf32>, %[[O:.*]]: memref<8x1024xf32>):
// CHECK-DAG: %[[I:.*]] = mgpu.program_id 0
// CHECK-DAG: %[[J:.*]] = mgpu.program_id 1
// CHECK: %[[COL:.*]] = arith.muli %[[I]], %c256
// CHECK: %[[XV:.*]] = memref.subview %[[X]][%[[J]], %[[COL]]] [1, 256] [1, 1] {mgpu.lane_private}
// CHECK: memref.subview %[[Y]]{{.*}} {mgpu.lane_private}
// CHECK: %[[OV:.*]] = memref.subview %[[O]]{{.*}} {mgpu.lane_private}
// CHECK: vector.transfer_read %[[XV]]
// CHECK: vector.transfer_write %{{.*}}, %[[OV]]
// No barrier between the lanes' reads and writes: each touches its own.
// GPU-LABEL: func.func @add(
// GPU-NOT: mgpu.warpgroup_barrier
// GPU: vector.load {{.*}} {alignment = 16 : i64}
// GPU-NOT: mgpu.warpgroup_barrier
// GPU: vector.store {{.*}} {alignment = 16 : i64}
// GPU-NOT: mgpu.warpgroup_barrier
// GPU: return
func.func @add(%x: memref<8x1024xf32>, %y: memref<8x1024xf32>, %o: memref<8x1024xf32>) {
  mgpu.pallas_call grid [4, 8] ins(%x, %y : memref<8x1024xf32>, memref<8x1024xf32>)
      outs(%o : memref<8x1024xf32>) in_specs [#b, #b] out_specs [#b] params #p {
  ^bb0(%xs: memref<1x256xf32, #gpu.address_space<workgroup>>,
       %ys: memref<1x256xf32, #gpu.address_space<workgroup>>,
       %os: memref<1x256xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true]} : memref<1x256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
    %b = vector.transfer_read %ys[%c0, %c0], %pad {in_bounds = [true]} : memref<1x256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
    %s = arith.addf %a, %b : vector<256xf32>
    vector.transfer_write %s, %os[%c0, %c0] {in_bounds = [true]} : vector<256xf32>, memref<1x256xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>
#seq = #mgpu.compiler_params<dimension_semantics = [sequential]>

// Staged as before: a sequential axis (the pipeline prefetches), an operand
// passed twice (aliased), an access to part of a block.
// CHECK-LABEL: func.func @sequential(
// CHECK-NOT: gmem
// CHECK-NOT: mgpu.lane_private
// CHECK: return
func.func @sequential(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] params #seq {
  ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
       %os: memref<256xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
    vector.transfer_write %a, %os[%c0] {in_bounds = [true]} : vector<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  }
  return
}

// CHECK-LABEL: func.func @aliased(
// CHECK-NOT: gmem
// CHECK: return
func.func @aliased(%x: memref<1024xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<1024xf32>) outs(%x : memref<1024xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
       %os: memref<256xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
    %n = arith.negf %a : vector<256xf32>
    vector.transfer_write %n, %os[%c0] {in_bounds = [true]} : vector<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  }
  return
}

// The input is read in two halves (lanes would read other lanes' elements
// of it): staged. The output is written whole: read in place.
// CHECK-LABEL: func.func @halves(
// CHECK: in_specs [#{{[a-z_0-9]+}}] out_specs [#[[OUT:[a-z_0-9]+]]]
// CHECK-NEXT: ^bb0(%{{.*}}: memref<256xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<1024xf32>):
func.func @halves(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
       %os: memref<256xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    %b = vector.transfer_read %xs[%c128], %pad {in_bounds = [true]} : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    %ab = vector.broadcast %a : vector<128xf32> to vector<2x128xf32>
    %s = vector.shape_cast %ab : vector<2x128xf32> to vector<256xf32>
    vector.transfer_write %s, %os[%c0] {in_bounds = [true]} : vector<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

#a = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i) -> (0, 0)>>
#c = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i) -> (0, 0)>>

// A contraction exchanges data between lanes: nothing changes.
// CHECK-LABEL: func.func @contract(
// CHECK-NOT: gmem
// CHECK: return
func.func @contract(%x: memref<16x16xf32>, %o: memref<16x16xf32>) {
  mgpu.pallas_call grid [1] ins(%x : memref<16x16xf32>) outs(%o : memref<16x16xf32>)
      in_specs [#a] out_specs [#c] {
  ^bb0(%xs: memref<16x16xf32, #gpu.address_space<workgroup>>,
       %os: memref<16x16xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<16x16xf32>
    %a = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<16x16xf32>
    %m = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %a, %a, %zero : vector<16x16xf32>, vector<16x16xf32> into vector<16x16xf32>
    vector.transfer_write %m, %os[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

#pid = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(i) -> (i, i)>>
#before = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i - 1)>>

// Index maps that name blocks outside the array (JAX's
// test_program_id_in_block_spec: program 1's block lies wholly past a 2x128
// array; here also one before it): a view there would read and write past
// the array, so the blocks stay staged, where the copies clip them as TMA
// does.
// CHECK-LABEL: func.func @past_the_array(
// CHECK-NOT: gmem
// CHECK-NOT: mgpu.lane_private
// CHECK: return
func.func @past_the_array(%x: memref<2x128xi32>, %o: memref<2x128xi32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<2x128xi32>) outs(%o : memref<2x128xi32>)
      in_specs [#pid] out_specs [#pid] {
  ^bb0(%xs: memref<2x128xi32, #gpu.address_space<workgroup>>,
       %os: memref<2x128xi32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0 : i32
    %a = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x128xi32, #gpu.address_space<workgroup>>, vector<2x128xi32>
    vector.transfer_write %a, %os[%c0, %c0] {in_bounds = [true, true]} : vector<2x128xi32>, memref<2x128xi32, #gpu.address_space<workgroup>>
  }
  return
}

// CHECK-LABEL: func.func @before_the_array(
// CHECK-NOT: gmem
// CHECK-NOT: mgpu.lane_private
// CHECK: return
func.func @before_the_array(%x: memref<256xf32>, %o: memref<256xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
      in_specs [#before] out_specs [#before] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    vector.transfer_write %a, %os[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}

// A grid size known only at run time bounds nothing: staged.
// CHECK-LABEL: func.func @dynamic_grid(
// CHECK-NOT: gmem
// CHECK-NOT: mgpu.lane_private
// CHECK: return
func.func @dynamic_grid(%n: index, %x: memref<256xf32>, %o: memref<256xf32>) {
  mgpu.pallas_call grid [%n] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
      in_specs [#before] out_specs [#before] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    vector.transfer_write %a, %os[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

#wrap = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> ((i + 1) mod 2)>>
#half = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i floordiv 2 - 1)>>
#last = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (1 - i floordiv 2)>>
#up = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i ceildiv 3)>>

// Positive twins: index maps whose blocks stay inside the array over the
// whole grid (mod, floordiv, ceildiv, a negative factor) are read in place.
// CHECK-LABEL: func.func @inside_the_array(
// CHECK: in_specs [#[[WHOLE:[a-z_0-9]+]]] out_specs [#[[WHOLE]], #[[WHOLE]], #[[WHOLE]]]
// CHECK-COUNT-4: {mgpu.lane_private}
// CHECK: return
func.func @inside_the_array(%x: memref<256xf32>, %o: memref<256xf32>, %p: memref<256xf32>, %q: memref<256xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<256xf32>) outs(%o, %p, %q : memref<256xf32>, memref<256xf32>, memref<256xf32>)
      in_specs [#wrap] out_specs [#last, #wrap, #up] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>,
       %ps: memref<128xf32, #gpu.address_space<workgroup>>,
       %qs: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    vector.transfer_write %a, %os[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    vector.transfer_write %a, %ps[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    vector.transfer_write %a, %qs[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}

// One step too far (i floordiv 2 - 1 is -1 for programs 0 and 1): staged.
// CHECK-LABEL: func.func @one_too_far(
// CHECK-NOT: gmem
// CHECK-NOT: mgpu.lane_private
// CHECK: return
func.func @one_too_far(%x: memref<256xf32>, %o: memref<256xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
      in_specs [#half] out_specs [#half] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    vector.transfer_write %a, %os[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}
