// A profile trace that cannot be written is a clear error at run time (exit
// status 1, the path and the reason), on every host backend; no partial
// file is left. Here the directory cannot be made: a file is in its way.
// RUN: rm -rf %t && mkdir -p %t && touch %t/file
// RUN: cd %t && not mgpu-run --backend=cpu %s 2>&1 | FileCheck %s
// RUN: cd %t && not mgpu-run --backend=emulate %s 2>&1 | FileCheck %s
// RUN: ls %t | FileCheck %s --check-prefix=FILES

// CHECK: mgpu: cannot write the profile trace directory 'file/traces': {{.+}}
// CHECK-NOT: done

// FILES: file
// FILES-NOT: {{.}}

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<profile_space = 2, profile_dir = "file/traces">

module {
  func.func @kernel(%x: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
        in_specs [#block] out_specs [#block] params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      mgpu.trace_scope "copy" {
        %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
            : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        vector.transfer_write %v, %os[%c0] {in_bounds = [true]}
            : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  func.func @main() {
    %x = memref.alloc() : memref<256xf32>
    %o = memref.alloc() : memref<256xf32>
    func.call @kernel(%x, %o) : (memref<256xf32>, memref<256xf32>) -> ()
    vector.print str "done\n"
    return
  }
}
