// The transcendental functions of JAX's kernels, as Pallas MGPU lowers them
// (jax/_src/pallas/mosaic_gpu/lowering.py at cec06d1, warpgroup semantics):
// lax.exp, exp2, log, log2, sin, cos, tanh, rsqrt, erf and atan2 are the math
// ops of the same names, and lax.logistic (jax.nn.sigmoid) is JAX's own
// `1 / (1 + exp(-x))`. Each is applied to 1024 values and compared with the
// host's libm; the same kernel again with approx_math = true, whose GPU code
// uses the hardware's approximations as JAX's FragmentedArray does
// (ex2.approx, lg2.approx, sin, cos, tanh and rsqrt.approx.f32), checked in
// the PTX below and on the backends with the tolerance of those
// instructions. Changed from JAX: one kernel applies every function.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// The host's reference (libm's erf, tanh and atan2 in host code) compiles
// for the GPU backend too, as the device bundle compiles it:
// RUN: mgpu-run %s -e main --emit-executable --backend=cuda -o %t.exe
// REQUIRES: ptxas

// Exact: libdevice's functions, linked into the kernel (rsqrtf is
// rsqrt.approx.f32 there too, within 2 ulp); no other approximate
// instruction and no call left unresolved.
// PTX-LABEL: .entry exact_kernel(
// PTX-NOT: tanh.approx
// PTX-NOT: sin.approx
// PTX-NOT: cos.approx
// PTX-NOT: lg2.approx
// PTX-NOT: call
// PTX: ret;
// approx_math: one instruction each, as JAX writes them (libdevice's fast
// exp, log, sin and cos; tanh by --mgpu-primitives-to-nvvm).
// PTX-LABEL: .entry approx_kernel(
// PTX-DAG: ex2.approx
// PTX-DAG: lg2.approx
// PTX-DAG: sin.approx.f32
// PTX-DAG: cos.approx.f32
// PTX-DAG: tanh.approx.f32
// PTX-DAG: rsqrt.approx.f32
// PTX: ret;
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#x = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>
#o = #mgpu.block_spec<shape = [11, 256], index_map = affine_map<(i) -> (0, i)>>
#exact = #mgpu.compiler_params<dimension_semantics = [parallel]>
#approx = #mgpu.compiler_params<dimension_semantics = [parallel], approx_math = true>

!block = memref<256xf32, #gpu.address_space<workgroup>>
!rows = memref<11x256xf32, #gpu.address_space<workgroup>>

module {
  // Row k of the output is function k of x: exp, exp2, log|x|, log2|x|,
  // sin, cos, tanh, rsqrt|x|, erf, atan2(x, 0.75 - x), logistic.
  func.func @exact(%x: memref<1024xf32>, %o: memref<11x1024xf32>) {
    mgpu.pallas_call grid [4] ins(%x : memref<1024xf32>)
        outs(%o : memref<11x1024xf32>) in_specs [#x] out_specs [#o]
        params #exact {
    ^bb0(%xs: !block, %os: !rows):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<256xf32>
      %shift = arith.constant dense<0.75> : vector<256xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : !block, vector<256xf32>
      %a = math.absf %v : vector<256xf32>
      %f0 = math.exp %v : vector<256xf32>
      %f1 = math.exp2 %v : vector<256xf32>
      %f2 = math.log %a : vector<256xf32>
      %f3 = math.log2 %a : vector<256xf32>
      %f4 = math.sin %v : vector<256xf32>
      %f5 = math.cos %v : vector<256xf32>
      %f6 = math.tanh %v : vector<256xf32>
      %f7 = math.rsqrt %a : vector<256xf32>
      %f8 = math.erf %v : vector<256xf32>
      %den = arith.subf %shift, %v : vector<256xf32>
      %f9 = math.atan2 %v, %den : vector<256xf32>
      // lax.logistic as JAX lowers it: 1 / (1 + exp(-x)).
      %neg = arith.negf %v : vector<256xf32>
      %en = math.exp %neg : vector<256xf32>
      %sum = arith.addf %en, %one : vector<256xf32>
      %f10 = arith.divf %one, %sum : vector<256xf32>
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      vector.transfer_write %f0, %os[%c0, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f1, %os[%c1, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f2, %os[%c2, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f3, %os[%c3, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f4, %os[%c4, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f5, %os[%c5, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f6, %os[%c6, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f7, %os[%c7, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f8, %os[%c8, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f9, %os[%c9, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f10, %os[%c10, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
    }
    return
  }

  func.func @approx(%x: memref<1024xf32>, %o: memref<11x1024xf32>) {
    mgpu.pallas_call grid [4] ins(%x : memref<1024xf32>)
        outs(%o : memref<11x1024xf32>) in_specs [#x] out_specs [#o]
        params #approx {
    ^bb0(%xs: !block, %os: !rows):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<256xf32>
      %shift = arith.constant dense<0.75> : vector<256xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : !block, vector<256xf32>
      %a = math.absf %v : vector<256xf32>
      %f0 = math.exp %v : vector<256xf32>
      %f1 = math.exp2 %v : vector<256xf32>
      %f2 = math.log %a : vector<256xf32>
      %f3 = math.log2 %a : vector<256xf32>
      %f4 = math.sin %v : vector<256xf32>
      %f5 = math.cos %v : vector<256xf32>
      %f6 = math.tanh %v : vector<256xf32>
      %f7 = math.rsqrt %a : vector<256xf32>
      %f8 = math.erf %v : vector<256xf32>
      %den = arith.subf %shift, %v : vector<256xf32>
      %f9 = math.atan2 %v, %den : vector<256xf32>
      // lax.logistic as JAX lowers it: 1 / (1 + exp(-x)).
      %neg = arith.negf %v : vector<256xf32>
      %en = math.exp %neg : vector<256xf32>
      %sum = arith.addf %en, %one : vector<256xf32>
      %f10 = arith.divf %one, %sum : vector<256xf32>
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      vector.transfer_write %f0, %os[%c0, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f1, %os[%c1, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f2, %os[%c2, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f3, %os[%c3, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f4, %os[%c4, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f5, %os[%c5, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f6, %os[%c6, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f7, %os[%c7, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f8, %os[%c8, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f9, %os[%c9, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
      vector.transfer_write %f10, %os[%c10, %c0] {in_bounds = [true]} : vector<256xf32>, !rows
    }
    return
  }

  // The host's value of function k at x (libm through the LLVM dialect).
  func.func @reference(%k: index, %x: f32) -> f32 {
    %one = arith.constant 1.0 : f32
    %shift = arith.constant 0.75 : f32
    %a = math.absf %x : f32
    %r = scf.index_switch %k -> f32
    case 0 { %y = math.exp %x : f32
             scf.yield %y : f32 }
    case 1 { %y = math.exp2 %x : f32
             scf.yield %y : f32 }
    case 2 { %y = math.log %a : f32
             scf.yield %y : f32 }
    case 3 { %y = math.log2 %a : f32
             scf.yield %y : f32 }
    case 4 { %y = math.sin %x : f32
             scf.yield %y : f32 }
    case 5 { %y = math.cos %x : f32
             scf.yield %y : f32 }
    case 6 { %y = math.tanh %x : f32
             scf.yield %y : f32 }
    case 7 { %y = math.rsqrt %a : f32
             scf.yield %y : f32 }
    case 8 { %y = math.erf %x : f32
             scf.yield %y : f32 }
    case 9 { %d = arith.subf %shift, %x : f32
             %y = math.atan2 %x, %d : f32
             scf.yield %y : f32 }
    default { %n = arith.negf %x : f32
              %e = math.exp %n : f32
              %s = arith.addf %e, %one : f32
              %y = arith.divf %one, %s : f32
              scf.yield %y : f32 }
    return %r : f32
  }

  // Outputs more than tol * max(1, |reference|) away from the host's, per
  // function; a NaN counts.
  func.func @mismatches(%x: memref<1024xf32>, %o: memref<11x1024xf32>,
                        %k: index, %tol: f32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1024 : index
    %zero = arith.constant 0 : i32
    %fone = arith.constant 1.0 : f32
    %true = arith.constant true
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %xi = memref.load %x[%i] : memref<1024xf32>
      %want = func.call @reference(%k, %xi) : (index, f32) -> f32
      %got = memref.load %o[%k, %i] : memref<11x1024xf32>
      %diff = arith.subf %got, %want : f32
      %adiff = math.absf %diff : f32
      %awant = math.absf %want : f32
      %scale = arith.maximumf %awant, %fone : f32
      %limit = arith.mulf %scale, %tol : f32
      %ok = arith.cmpf ole, %adiff, %limit : f32
      %ne = arith.xori %ok, %true : i1
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    return %bad : i32
  }

  func.func @report(%x: memref<1024xf32>, %o: memref<11x1024xf32>, %tol: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c11 = arith.constant 11 : index
    scf.for %k = %c0 to %c11 step %c1 {
      %bad = func.call @mismatches(%x, %o, %k, %tol)
          : (memref<1024xf32>, memref<11x1024xf32>, index, f32) -> i32
      vector.print %bad : i32
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1024 : index
    %half = arith.constant 512 : index
    %step = arith.constant 0.0078125 : f32
    %off = arith.constant 0.00390625 : f32
    // x_i = (i - 512) / 128 + 1/256: [-4, 4), never 0 (log) nor 0.75
    // (atan2's denominator).
    %x = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %d = arith.subi %i, %half : index
      %di = arith.index_cast %d : index to i32
      %df = arith.sitofp %di : i32 to f32
      %s = arith.mulf %df, %step : f32
      %v = arith.addf %s, %off : f32
      memref.store %v, %x[%i] : memref<1024xf32>
    }
    %o = memref.alloc() : memref<11x1024xf32>

    // Within 4e-6 of libm: libdevice's functions are within 2 or 3 ulp
    // (about 2.4e-7 relative each).
    // CHECK-COUNT-11: 0
    func.call @exact(%x, %o) : (memref<1024xf32>, memref<11x1024xf32>) -> ()
    %tight = arith.constant 4.0e-6 : f32
    func.call @report(%x, %o, %tight) : (memref<1024xf32>, memref<11x1024xf32>, f32) -> ()

    // Within 1e-3 with approx_math: tanh.approx.f32's error is at most
    // 2^-10.987 (PTX ISA), the others' far less.
    // CHECK-NEXT: approx
    // CHECK-COUNT-11: 0
    vector.print str "approx\n"
    func.call @approx(%x, %o) : (memref<1024xf32>, memref<11x1024xf32>) -> ()
    %loose = arith.constant 1.0e-3 : f32
    func.call @report(%x, %o, %loose) : (memref<1024xf32>, memref<11x1024xf32>, f32) -> ()

    memref.dealloc %o : memref<11x1024xf32>
    memref.dealloc %x : memref<1024xf32>
    return
  }
}
