// Interpret-mode benchmark: a row softmax of a 4096x4096 f32 matrix as a
// pallas_call with 4x4096 blocks (the size that used to take minutes to
// compile), timed with rtclock around the kernel call (best of 3 runs).
// bench/cpu-interpret.sh compares it with the same loops in C++ (-O2).

#rows = #mgpu.block_spec<shape = [4, 4096], index_map = affine_map<(i) -> (i, 0)>>

module {
  func.func private @rtclock() -> f64

  func.func @kernel(%x: memref<4096x4096xf32>, %o: memref<4096x4096xf32>) {
    mgpu.pallas_call grid [1024]
        ins(%x : memref<4096x4096xf32>) outs(%o : memref<4096x4096xf32>)
        in_specs [#rows] out_specs [#rows] {
    ^bb0(%xs: memref<4x4096xf32, #gpu.address_space<workgroup>>,
         %os: memref<4x4096xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<4x4096xf32, #gpu.address_space<workgroup>>, vector<4x4096xf32>
      %ninf = arith.constant dense<0xFF800000> : vector<4xf32>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %m = vector.multi_reduction <maximumf>, %v, %ninf [1]
          : vector<4x4096xf32> to vector<4xf32>
      %m2 = vector.shape_cast %m : vector<4xf32> to vector<4x1xf32>
      %mb = vector.broadcast %m2 : vector<4x1xf32> to vector<4x4096xf32>
      %d = arith.subf %v, %mb : vector<4x4096xf32>
      %e = math.exp %d : vector<4x4096xf32>
      %s = vector.multi_reduction <add>, %e, %zero [1]
          : vector<4x4096xf32> to vector<4xf32>
      %s2 = vector.shape_cast %s : vector<4xf32> to vector<4x1xf32>
      %sb = vector.broadcast %s2 : vector<4x1xf32> to vector<4x4096xf32>
      %r = arith.divf %e, %sb : vector<4x4096xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<4x4096xf32>, memref<4x4096xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 4096 : index
    // x[r][c] = (c mod 4) * ln 2: out[r][c] = 2^(c mod 4) / 15360.
    %ln2 = arith.constant 0.693147182 : f32
    %x = memref.alloc() : memref<4096x4096xf32>
    %o = memref.alloc() : memref<4096x4096xf32>
    scf.for %r = %c0 to %n step %c1 {
      scf.for %c = %c0 to %n step %c1 {
        %q = arith.remui %c, %c4 : index
        %qi = arith.index_cast %q : index to i32
        %f = arith.sitofp %qi : i32 to f32
        %v = arith.mulf %f, %ln2 : f32
        memref.store %v, %x[%r, %c] : memref<4096x4096xf32>
      }
    }
    %inf = arith.constant 1.0e30 : f64
    %best = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %inf) -> f64 {
      %t0 = func.call @rtclock() : () -> f64
      func.call @kernel(%x, %o) : (memref<4096x4096xf32>, memref<4096x4096xf32>) -> ()
      %t1 = func.call @rtclock() : () -> f64
      %dt = arith.subf %t1, %t0 : f64
      %m = arith.minimumf %acc, %dt : f64
      scf.yield %m : f64
    }
    %last = arith.constant 4095 : index
    %v = memref.load %o[%last, %last] : memref<4096x4096xf32>
    %scale = arith.constant 15360.0 : f32
    %w = arith.mulf %v, %scale : f32
    vector.print str "check (expect 8): "
    vector.print %w : f32
    vector.print str "mgpu interpret seconds: "
    vector.print %best : f64
    return
  }
}
