// A profiled kernel on sm_90a: each event reads %globaltimer and stores
// its tag and time with plain global stores on lane 0; ptxas accepts it
// without spills.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// Six events (the body and two scopes, each a begin and an end): six
// clock reads.
// PTX-LABEL: .entry profiled_kernel
// PTX-COUNT-6: mov.u64 {{.+}}, %globaltimer;
// PTX-NOT: %globaltimer
// PTX: st.global
// PTX: ret;

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#block = #mgpu.block_spec<shape = [256], index_map = affine_map<(i, t) -> (i)>>
#params = #mgpu.compiler_params<profile_space = 4, profile_dir = "traces">
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @profiled(%x: memref<1024xf32>, %o: memref<1024xf32>) {
    mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
        in_specs [#block] out_specs [#block] params #params mesh #mesh {
    ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
         %os: memref<256xf32, #gpu.address_space<workgroup>>):
      %pad = arith.constant 0.0 : f32
      %wg = mgpu.axis_index "wg"
      %c128 = arith.constant 128 : index
      %start = arith.muli %wg, %c128 : index
      %v = mgpu.trace_scope "load" {
        %r = vector.transfer_read %xs[%start], %pad {in_bounds = [true]}
            : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        mgpu.yield %r : vector<128xf32>
      } -> vector<128xf32>
      mgpu.trace_scope "compute" {
        %sq = arith.mulf %v, %v : vector<128xf32>
        vector.transfer_write %sq, %os[%start] {in_bounds = [true]}
            : vector<128xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }
}
