// Interpret-mode benchmark: out = a * 2 + b over 2^24 f32 elements, as a
// pallas_call with 4096-element staged blocks, timed with rtclock around the
// kernel call (best of 5 runs). bench/cpu-interpret.sh compares it with
// the same loop in C++ built with -O2.

#block = #mgpu.block_spec<shape = [4096], index_map = affine_map<(i) -> (i)>>

module {
  func.func private @rtclock() -> f64

  func.func @kernel(%a: memref<16777216xf32>, %b: memref<16777216xf32>,
                    %o: memref<16777216xf32>) {
    mgpu.pallas_call grid [4096]
        ins(%a, %b : memref<16777216xf32>, memref<16777216xf32>)
        outs(%o : memref<16777216xf32>)
        in_specs [#block, #block] out_specs [#block] {
    ^bb0(%x: memref<4096xf32, #gpu.address_space<workgroup>>,
         %y: memref<4096xf32, #gpu.address_space<workgroup>>,
         %z: memref<4096xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<4096xf32>
      %vx = vector.transfer_read %x[%c0], %pad {in_bounds = [true]}
          : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4096xf32>
      %vy = vector.transfer_read %y[%c0], %pad {in_bounds = [true]}
          : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4096xf32>
      %m = arith.mulf %vx, %two : vector<4096xf32>
      %s = arith.addf %m, %vy : vector<4096xf32>
      vector.transfer_write %s, %z[%c0] {in_bounds = [true]}
          : vector<4096xf32>, memref<4096xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %a = memref.alloc() : memref<16777216xf32>
    %b = memref.alloc() : memref<16777216xf32>
    %o = memref.alloc() : memref<16777216xf32>
    %one = arith.constant 1.0 : f32
    %three = arith.constant 3.0 : f32
    linalg.fill ins(%one : f32) outs(%a : memref<16777216xf32>)
    linalg.fill ins(%three : f32) outs(%b : memref<16777216xf32>)
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %inf = arith.constant 1.0e30 : f64
    %best = scf.for %r = %c0 to %c5 step %c1 iter_args(%acc = %inf) -> f64 {
      %t0 = func.call @rtclock() : () -> f64
      func.call @kernel(%a, %b, %o) : (memref<16777216xf32>, memref<16777216xf32>, memref<16777216xf32>) -> ()
      %t1 = func.call @rtclock() : () -> f64
      %dt = arith.subf %t1, %t0 : f64
      %m = arith.minimumf %acc, %dt : f64
      scf.yield %m : f64
    }
    %last = arith.constant 16777215 : index
    %v = memref.load %o[%last] : memref<16777216xf32>
    vector.print str "check (expect 5): "
    vector.print %v : f32
    vector.print str "mgpu interpret seconds: "
    vector.print %best : f64
    return
  }
}
