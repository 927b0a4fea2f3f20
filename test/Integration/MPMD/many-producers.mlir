// Four producer programs each write their quarter of `buf` and signal; one
// consumer program, listed first, waits for all four signals (value 4), then
// sums `buf`. Interpret mode gives each of the five programs a host thread.
// RUN: %run_on_backends %s
// With each producer signalling 4 (EARLY), the consumer's wait may complete
// at the first signal, before the other producers have written: on a GPU
// it may sum a buffer that is still being filled. The emulator runs the
// producers first, but judges the wait as the hardware may complete it:
// ordered after the first signal only, so the read of another producer's
// quarter is a race, reported at the read, on the default schedule.
// RUN: sed 's/%%inc = arith.constant 1 : i32/%%inc = arith.constant 4 : i32/' %s > %t.mlir
// RUN: grep -c "^ *%%inc = arith.constant 4 : i32$" %t.mlir | FileCheck %s --check-prefix=SED
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=EARLY
// SED: 1
// EARLY: many-producers.mlir.tmp.mlir:[[#]]:{{[0-9]+}}: error: data race on global memory: reads what CTA {{[2-4]}} (cluster {{[2-4]}}) writes at {{.*}}many-producers.mlir.tmp.mlir:[[#]]:{{[0-9]+}} with no semaphore or barrier between them

#consumer = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
#producers = #mgpu.mesh<grid = [4], grid_names = ["p"]>

module {
  func.func @main() {
    %buf = memref.alloc() : memref<64xf32>
    %sum = memref.alloc() : memref<1xf32>
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%buf : memref<64xf32>)
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    mgpu.mpmd_map meshes [#consumer, #producers]
        outs(%buf, %sum : memref<64xf32>, memref<1xf32>)
        scratch [memref<1xi32>] {
    ^bb0(%b: memref<64xf32>, %s: memref<1xf32>, %sem: memref<1xi32>):
      %c0 = arith.constant 0 : index
      %four = arith.constant 4 : i32
      mgpu.semaphore_wait %sem[%c0], %four : memref<1xi32>
      %v = vector.load %b[%c0] : memref<64xf32>, vector<64xf32>
      %t = vector.reduction <add>, %v : vector<64xf32> into f32
      memref.store %t, %s[%c0] : memref<1xf32>
    }, {
    ^bb0(%b: memref<64xf32>, %s: memref<1xf32>, %sem: memref<1xi32>):
      // Producer p writes buf[16p + k] = p + 1 for k in [0, 16).
      %p = mgpu.axis_index "p"
      %c16 = arith.constant 16 : index
      %start = arith.muli %p, %c16 : index
      %pi = arith.index_cast %p : index to i32
      %pf = arith.sitofp %pi : i32 to f32
      %one = arith.constant 1.0 : f32
      %val = arith.addf %pf, %one : f32
      %v = vector.broadcast %val : f32 to vector<16xf32>
      vector.store %v, %b[%start] : memref<64xf32>, vector<16xf32>
      %c0 = arith.constant 0 : index
      %inc = arith.constant 1 : i32
      mgpu.semaphore_signal %sem[%c0], %inc : memref<1xi32>
    }
    // The sum is 16 * (1 + 2 + 3 + 4) = 160.
    // CHECK: 160
    %c0 = arith.constant 0 : index
    %r = memref.load %sum[%c0] : memref<1xf32>
    vector.print %r : f32
    memref.dealloc %buf : memref<64xf32>
    memref.dealloc %sum : memref<1xf32>
    return
  }
}
