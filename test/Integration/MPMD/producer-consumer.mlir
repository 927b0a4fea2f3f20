// Producer/consumer regions of one mpmd_map, synchronized by a semaphore in
// global scratch, with the regions in both orders: in interpret mode every
// program runs on its own host thread, so the consumer waiting first cannot
// deadlock. The GPU lowering (run by the emulator, every CUDA thread a
// fiber that yields where it waits) is checked in both of its forms: two
// warpgroups of one CTA, and one CTA per region.
// RUN: %run_on_backends %s -- --mpmd-form=warp-specialized
// RUN: %run_on_backends %s -- --mpmd-form=cta-partitioned

#one = #mgpu.mesh<grid = [1], grid_names = ["g0"]>

module {
  // Region 0 produces buf[i] = i + 1 then signals; region 1 waits, then
  // writes out[i] = 3 * buf[i].
  func.func @producer_first(%buf: memref<128xf32>, %out: memref<128xf32>) {
    mgpu.mpmd_map meshes [#one, #one]
        outs(%buf, %out : memref<128xf32>, memref<128xf32>)
        scratch [memref<1xi32>] {
    ^bb0(%b: memref<128xf32>, %o: memref<128xf32>, %sem: memref<1xi32>):
      func.call @produce(%b) : (memref<128xf32>) -> ()
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      mgpu.semaphore_signal %sem[%c0], %one : memref<1xi32>
    }, {
    ^bb0(%b: memref<128xf32>, %o: memref<128xf32>, %sem: memref<1xi32>):
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      mgpu.semaphore_wait %sem[%c0], %one : memref<1xi32>
      func.call @consume(%b, %o) : (memref<128xf32>, memref<128xf32>) -> ()
    }
    return
  }

  // The same with the consumer as region 0.
  func.func @consumer_first(%buf: memref<128xf32>, %out: memref<128xf32>) {
    mgpu.mpmd_map meshes [#one, #one]
        outs(%buf, %out : memref<128xf32>, memref<128xf32>)
        scratch [memref<1xi32>] {
    ^bb0(%b: memref<128xf32>, %o: memref<128xf32>, %sem: memref<1xi32>):
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      mgpu.semaphore_wait %sem[%c0], %one : memref<1xi32>
      func.call @consume(%b, %o) : (memref<128xf32>, memref<128xf32>) -> ()
    }, {
    ^bb0(%b: memref<128xf32>, %o: memref<128xf32>, %sem: memref<1xi32>):
      func.call @produce(%b) : (memref<128xf32>) -> ()
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      mgpu.semaphore_signal %sem[%c0], %one : memref<1xi32>
    }
    return
  }

  func.func @produce(%b: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 128 : index
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %one = arith.constant 1.0 : f32
      %v = arith.addf %f, %one : f32
      memref.store %v, %b[%i] : memref<128xf32>
    }
    return
  }

  func.func @consume(%b: memref<128xf32>, %o: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %v = vector.load %b[%c0] : memref<128xf32>, vector<128xf32>
    %three = arith.constant dense<3.0> : vector<128xf32>
    %r = arith.mulf %v, %three : vector<128xf32>
    vector.store %r, %o[%c0] : memref<128xf32>, vector<128xf32>
    return
  }

  // Sum of out, and out[0], out[127]; expected: out[i] = 3 (i + 1), so
  // out[0] = 3, out[127] = 384 and the sum is 3 * 128 * 129 / 2 = 24768.
  func.func @report(%o: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %c127 = arith.constant 127 : index
    %v = vector.load %o[%c0] : memref<128xf32>, vector<128xf32>
    %sum = vector.reduction <add>, %v : vector<128xf32> into f32
    %first = memref.load %o[%c0] : memref<128xf32>
    %last = memref.load %o[%c127] : memref<128xf32>
    vector.print %first : f32
    vector.print %last : f32
    vector.print %sum : f32
    return
  }

  func.func @main() {
    %buf = memref.alloc() : memref<128xf32>
    %out = memref.alloc() : memref<128xf32>
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%buf : memref<128xf32>)
    linalg.fill ins(%zero : f32) outs(%out : memref<128xf32>)
    call @producer_first(%buf, %out) : (memref<128xf32>, memref<128xf32>) -> ()
    // CHECK: 3
    // CHECK-NEXT: 384
    // CHECK-NEXT: 24768
    call @report(%out) : (memref<128xf32>) -> ()

    linalg.fill ins(%zero : f32) outs(%buf : memref<128xf32>)
    linalg.fill ins(%zero : f32) outs(%out : memref<128xf32>)
    call @consumer_first(%buf, %out) : (memref<128xf32>, memref<128xf32>) -> ()
    // CHECK-NEXT: 3
    // CHECK-NEXT: 384
    // CHECK-NEXT: 24768
    call @report(%out) : (memref<128xf32>) -> ()
    memref.dealloc %buf : memref<128xf32>
    memref.dealloc %out : memref<128xf32>
    return
  }
}
