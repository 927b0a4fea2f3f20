// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines --canonicalize --cse | FileCheck %s
// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines | mgpu-opt --allow-unregistered-dialect -o /dev/null

// A warp-specialized pipeline with a carry and a compute_context (JAX's
// emit_pipeline_warp_specialized(..., compute_context=)): the carry rides
// in the compute threads' step loop, the compute_context's code runs in
// their branch after that loop on its results (inside their register
// budget), and the memory thread, which runs no step, yields poison for the
// pipeline's results.

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
!block = memref<16x64xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @context
// CHECK: %[[UNDEF:.*]] = ub.poison : vector<16xf32>
// CHECK: %[[ROLES:.*]] = scf.if %{{.*}} -> (vector<16xf32>) {
// CHECK: mgpu.set_max_registers 40 decrease
// CHECK: scf.yield %[[UNDEF]] : vector<16xf32>
// CHECK-NEXT: } else {
// CHECK: mgpu.set_max_registers 232 increase
// CHECK: %[[LOOP:.*]]:{{[0-9]+}} = scf.for {{.*}} iter_args({{.*}}, %[[ACC:.*]] = %{{.*}}) -> (index, vector<16xf32>)
// CHECK: "test.step"(%[[ACC]], %{{.*}})
// CHECK: scf.yield %{{.*}}, %{{.*}} : index, vector<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: "test.epilogue"(%[[LOOP]]#1) : (vector<16xf32>) -> ()
// CHECK-NEXT: scf.yield %[[LOOP]]#1 : vector<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: "test.after"(%[[ROLES]])
func.func @context(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs []
        params #two warp_specialization #mgpu.warp_specialization<memory_registers = 40>
        -> vector<16xf32> {
    ^bb0(%k: index, %xs: !block, %acc: vector<16xf32>):
      %next = "test.step"(%acc, %xs) : (vector<16xf32>, !block) -> vector<16xf32>
      mgpu.yield %next : vector<16xf32>
    } compute_context {
    ^bb0(%last: vector<16xf32>):
      "test.epilogue"(%last) : (vector<16xf32>) -> ()
    }
    "test.after"(%r) : (vector<16xf32>) -> ()
  }
  return
}
