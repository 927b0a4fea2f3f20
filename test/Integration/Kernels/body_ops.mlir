// Body ops JAX Pallas kernels use that need more than lane-local math on
// the GPU: iota (vector.step), concatenation (extract/insert_strided_slice),
// vectors built from scalars (vector.from_elements) and non-splat constants,
// scf.while, scf.index_switch, f8 (e4m3) conversions and debug_print
// (gpu.printf, once per program). Every backend gives the same numbers.
// RUN: %run_on_backends %s --match-full-lines
// The GPU code assembles for sm_90a without spills; debug_print is vprintf.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX: call.uni (retval0), vprintf,

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>

module {
  func.func @k(%x: tensor<256xf32>, %init: tensor<256xf32>) -> tensor<256xf32> {
    %out = mgpu.pallas_call grid [2] ins(%x : tensor<256xf32>)
        outs(%init : tensor<256xf32>) in_specs [#b] out_specs [#b] {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %pid = mgpu.program_id 0
      gpu.printf "program %lld\n", %pid : index
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      // iota: r1[i] = x[i] + i
      %s = vector.step : vector<128xindex>
      %si = arith.index_cast %s : vector<128xindex> to vector<128xi32>
      %sf = arith.sitofp %si : vector<128xi32> to vector<128xf32>
      %r1 = arith.addf %v, %sf : vector<128xf32>
      // concatenate(r1[0:64], r1[0:64])
      %h = vector.extract_strided_slice %r1 {offsets = [0], sizes = [64], strides = [1]}
          : vector<128xf32> to vector<64xf32>
      %r2 = vector.insert_strided_slice %h, %r1 {offsets = [64], strides = [1]}
          : vector<64xf32> into vector<128xf32>
      // + [1, 2, 1, 2, ...] from scalars, + [10, 20, 30, 40, ...] constant
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %fe = vector.from_elements %one, %two : vector<2xf32>
      %feb = vector.broadcast %fe : vector<2xf32> to vector<64x2xf32>
      %fef = vector.shape_cast %feb : vector<64x2xf32> to vector<128xf32>
      %tens = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
      %tb = vector.broadcast %tens : vector<4xf32> to vector<32x4xf32>
      %tf = vector.shape_cast %tb : vector<32x4xf32> to vector<128xf32>
      %r3 = arith.addf %r2, %fef : vector<128xf32>
      %r4 = arith.addf %r3, %tf : vector<128xf32>
      // while: three more copies, r5 = 4 * r4
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %i3 = arith.constant 3 : i32
      %w:2 = scf.while (%i = %i0, %acc = %r4) : (i32, vector<128xf32>) -> (i32, vector<128xf32>) {
        %lt = arith.cmpi slt, %i, %i3 : i32
        scf.condition(%lt) %i, %acc : i32, vector<128xf32>
      } do {
      ^bb1(%j: i32, %a: vector<128xf32>):
        %n = arith.addi %j, %i1 : i32
        %a2 = arith.addf %a, %r4 : vector<128xf32>
        scf.yield %n, %a2 : i32, vector<128xf32>
      }
      // switch on the program: program 0 keeps r5, the others negate it
      %r6 = scf.index_switch %pid -> vector<128xf32>
      case 0 {
        scf.yield %w#1 : vector<128xf32>
      }
      default {
        %neg = arith.negf %w#1 : vector<128xf32>
        scf.yield %neg : vector<128xf32>
      }
      // + (i mod 8) through f8 e4m3 (exact for 0..7)
      %c8 = arith.constant dense<8> : vector<128xindex>
      %q = arith.remui %s, %c8 : vector<128xindex>
      %qi = arith.index_cast %q : vector<128xindex> to vector<128xi32>
      %qf = arith.sitofp %qi : vector<128xi32> to vector<128xf32>
      %q8 = arith.truncf %qf : vector<128xf32> to vector<128xf8E4M3FN>
      %qb = arith.extf %q8 : vector<128xf8E4M3FN> to vector<128xf32>
      %r = arith.addf %r6, %qb : vector<128xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<256xf32>
    return %out : tensor<256xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 256 : index
    %x = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<256xf32>
    }
    %xt = bufferization.to_tensor %x restrict : memref<256xf32> to tensor<256xf32>
    %init = tensor.empty() : tensor<256xf32>
    // CHECK-DAG: program 0
    // CHECK-DAG: program 1
    %ot = func.call @k(%xt, %init) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<256xf32> to memref<256xf32>
    // Expected values computed independently (Python).
    // CHECK: ( 44, 97, 142, 195, 80, 133, 178, 231, 108, 161 )
    // CHECK-NEXT: ( -556, -607, -650, -701, -584, -635 )
    // CHECK-NEXT: -1126
    // CHECK-NEXT: -1177
    %c128 = arith.constant 128 : index
    %c190 = arith.constant 190 : index
    %c255 = arith.constant 255 : index
    %v0 = vector.load %o[%c0] : memref<256xf32>, vector<10xf32>
    vector.print %v0 : vector<10xf32>
    %v1 = vector.load %o[%c128] : memref<256xf32>, vector<6xf32>
    vector.print %v1 : vector<6xf32>
    %a = memref.load %o[%c190] : memref<256xf32>
    vector.print %a : f32
    %b = memref.load %o[%c255] : memref<256xf32>
    vector.print %b : f32
    return
  }
}
