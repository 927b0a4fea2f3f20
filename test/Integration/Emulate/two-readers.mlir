// Two readers of one buffer, and a writer ordered after only one of them
// (the checks' shadow of a byte keeps its last reader and one earlier
// reader that the last one is not ordered after). Threads 0 and 1 read
// the buffer thread 2 filled and copy it out; thread 2 refills it once
// both have arrived on `done`. With `done` counting one arrival, which
// only thread 1 makes (DONE-ONE), thread 2 may refill the buffer while
// thread 0 still reads it: on the GPU thread 0 may copy out the refill.
// The emulator reports the refill's write at its op, on the default
// schedule (where thread 1 reads last, so the last reader alone does not
// show it) and on two seeded ones.
// RUN: %run_on_backends %s --match-full-lines
// RUN: sed 's/^!done = .*/!done = !mgpu.barrier<count = 1, arrivals = 1>/; s/arith.cmpi ule, %%wg, %%c1 : index  \/\/ arrives/arith.cmpi eq, %%wg, %%c1 : index/' %s > %t.mlir
// RUN: grep -c "^!done = .*arrivals = 1>\|arith.cmpi eq, %%wg, %%c1 : index$" %t.mlir | FileCheck %s --check-prefix=ONE
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=DONE-ONE
// RUN: not mgpu-run %t.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// ONE: 2
// TWO: 2

// CHECK: mismatches: 0
// DONE-ONE: two-readers.mlir.tmp.mlir:[[#]]:9: error: data race: writes shared memory that thread 0 reads at {{.*}}two-readers.mlir.tmp.mlir:[[#]]:14 with no barrier in between

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
!buf = memref<128xf32, #gpu.address_space<workgroup>>
!ready = !mgpu.barrier<count = 1, arrivals = 1>
!done = !mgpu.barrier<count = 1, arrivals = 2>

module {
  func.func @two_readers(%o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#mesh] outs(%o : memref<256xf32>) scratch [!buf, !ready, !done] {
    ^bb0(%og: memref<256xf32>, %s: !buf, %ready: !ready, %done: !done):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %wg = mgpu.axis_index "wg"
      %writer = arith.cmpi eq, %wg, %c2 : index
      scf.if %writer {
        %iota = vector.step : vector<128xindex>
        %ii = arith.index_cast %iota : vector<128xindex> to vector<128xi32>
        %v = arith.sitofp %ii : vector<128xi32> to vector<128xf32>
        vector.transfer_write %v, %s[%c0] {in_bounds = [true]} : vector<128xf32>, !buf
        mgpu.barrier_arrive %ready[%c0] : !ready
        mgpu.barrier_wait %done[%c0] : !done
        %zero = arith.constant dense<0.0> : vector<128xf32>
        vector.transfer_write %zero, %s[%c0] {in_bounds = [true]} : vector<128xf32>, !buf
      } else {
        mgpu.barrier_wait %ready[%c0] : !ready
        %pad = arith.constant 0.0 : f32
        %r = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : !buf, vector<128xf32>
        %at = arith.muli %wg, %c128 : index
        vector.transfer_write %r, %og[%at] {in_bounds = [true]} : vector<128xf32>, memref<256xf32>
        %arrives = arith.cmpi ule, %wg, %c1 : index  // arrives
        scf.if %arrives {
          mgpu.barrier_arrive %done[%c0] : !done
        }
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %o = memref.alloc() : memref<256xf32>
    func.call @two_readers(%o) : (memref<256xf32>) -> ()
    %n = scf.for %i = %c0 to %c256 step %c1 iter_args(%a = %c0) -> index {
      %j = arith.remui %i, %c128 : index
      %ji = arith.index_cast %j : index to i32
      %want = arith.sitofp %ji : i32 to f32
      %got = memref.load %o[%i] : memref<256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b = arith.addi %a, %one : index
      scf.yield %b : index
    }
    vector.print str "mismatches: "
    vector.print %n : index
    memref.dealloc %o : memref<256xf32>
    return
  }
}
