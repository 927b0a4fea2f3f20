// The emulator's deferred, reordered asynchrony (lib/Runtime/EmuAsync.cpp):
// a wgmma reads its operands and produces its accumulator at the wait that
// completes it, copies in land and copies out read shared memory at points
// a seeded schedule picks (mgpu-run --emulate-seed N --emulate-schedules K
// runs seeds N..N+K-1 and names each seed that fails or prints other
// output). Planted bugs that the emulator used to pass by luck: the checks
// report them on every schedule, and without the checks deferral gives
// wrong numbers where MMAs computed at their issue (MGPU_EMULATE_EAGER=1,
// the emulator before) stay silent.
// RUN: rm -rf %t && split-file %s %t

// The warp-specialized pipelined matmul with delay_release = 1 in its
// kernel form: the compute threads wait for all but the latest step's MMAs
// (wgmma_wait 1), then free the slots of the step before. It passes on
// several schedules ("the checker has seen it release correctly").
// RUN: sed 's/transforms = \[#mgpu.tile<\[64, 64\]>, #mgpu.swizzle<128>\]>$/transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>], delay_release = 1>/' %mgpu_src_root/examples/matmul_ws_pipeline.mlir | cat - %S/../TensorCores/matmul_ws_pipeline.mlir > %t/ws.mlir
// RUN: mgpu-opt %t/ws.mlir --mgpu-bufferize=identity-layout=1 --mgpu-lower-run-scoped --mgpu-contract-to-wgmma --mgpu-select-tensor-cores --mgpu-direct-blocks --mgpu-math-flags --mgpu-expand-pipelines --mgpu-track-barrier-phases -o %t/form.mlir
// RUN: grep -c "mgpu.wgmma_wait 1$" %t/form.mlir | FileCheck %s --check-prefix=ONE
// RUN: mgpu-run %t/form.mlir -e main --backend=emulate --emulate-schedules 3 | FileCheck %s --check-prefix=RIGHT
// ONE: 1
// RIGHT: mismatches: 0

// Planted: wgmma_wait 2 instead of 1, so a step's slots are freed while its
// MMAs may still read them. The async check reports the copy that refills
// a slot on every schedule; unchecked, the numbers are wrong.
// RUN: sed 's/^\( *\)mgpu.wgmma_wait 1$/\1mgpu.wgmma_wait 2/' %t/form.mlir > %t/wait2.mlir
// RUN: not mgpu-run %t/wait2.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | FileCheck %s --check-prefix=WAIT2
// RUN: mgpu-run %t/wait2.mlir -e main --backend=emulate --check=none --emulate-seed 1 | FileCheck %s --check-prefix=WRONG
// RUN: env MGPU_EMULATE_EAGER=1 mgpu-run %t/wait2.mlir -e main --backend=emulate --check=none --emulate-schedules 3 | FileCheck %s --check-prefix=RIGHT
// WAIT2: wait2.mlir:[[COPY:[0-9]+:[0-9]+]]: error: copy_gmem_to_smem overwrites shared memory that a wgmma of warpgroup {{[01]}} (at {{.*}}wait2.mlir:[[MMA:[0-9]+:[0-9]+]]) may still read
// WAIT2-NEXT: schedule with seed 1 failed
// WAIT2-NEXT: wait2.mlir:[[COPY]]: error: copy_gmem_to_smem overwrites {{.*}}wait2.mlir:[[MMA]]
// WAIT2-NEXT: schedule with seed 2 failed
// WAIT2-NEXT: wait2.mlir:[[COPY]]: error: copy_gmem_to_smem overwrites {{.*}}wait2.mlir:[[MMA]]
// WAIT2-NEXT: schedule with seed 3 failed
// WRONG: mismatches: {{[1-9][0-9]*}}

// Releasing the slots before the wgmma_wait 1 instead of after is safe in
// this lowering: with no wait for fewer than all MMAs before it, the
// release (an op with regions) gets a wgmma.wait_group 0 first.
// RUN: awk '/mgpu.wgmma_wait 1$/ {held=$0; next} held && /mgpu.barrier_arrive/ {print; getline; print; print held; held=""; next} {print}' %t/form.mlir > %t/early.mlir
// RUN: not diff %t/form.mlir %t/early.mlir > /dev/null
// RUN: mgpu-run %t/early.mlir -e main --backend=emulate --emulate-schedules 3 | FileCheck %s --check-prefix=RIGHT

// The hand-written warp-specialized matmul with its wgmma_wait 1 loosened
// to 3 (checks.mlir's planted bug): wrong numbers with deferral.
// RUN: sed 's/^\( *\)mgpu.wgmma_wait 1$/\1mgpu.wgmma_wait 3/' %mgpu_src_root/examples/matmul_warp_specialized.mlir | cat - %S/../TensorCores/matmul_warp_specialized.mlir > %t/wait3.mlir
// RUN: mgpu-run %t/wait3.mlir -e main --backend=emulate --check=none --emulate-seed 2 | FileCheck %s --check-prefix=WRONG
// RUN: env MGPU_EMULATE_EAGER=1 mgpu-run %t/wait3.mlir -e main --backend=emulate --check=none --emulate-seed 2 | FileCheck %s --check-prefix=RIGHT

// A register accumulator read before its wgmma_wait: the GPU form of the
// pipelined matmul with the wait_group 0 before its write-back taken out.
// The read is reported at the op that reads the registers; unchecked it
// reads NaN (the GPU's registers are undefined there).
// RUN: mgpu-opt %t/form.mlir --mgpu-split-mpmd=different-clusters-only=1 --mgpu-promote-accumulators --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-device-memory -o %t/gpu.mlir
// RUN: sed '/mgpu.wgmma_wait_group 0$/d' %t/gpu.mlir > %t/no-wait.mlir
// RUN: not mgpu-run %t/no-wait.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: mgpu-run %t/no-wait.mlir -e main --backend=emulate --check=none | FileCheck %s --check-prefix=ACC-NAN
// ACC: no-wait.mlir:{{[0-9]+:[0-9]+}}: error: reads a wgmma accumulator register before the mgpu.wgmma_wait that completes its MMA (at {{.*}}no-wait.mlir:{{[0-9]+:[0-9]+}}) (an emulator check; --check=none turns them off)
// ACC-NAN: mismatches: 65536
// ACC-NAN-NEXT: ( nan, nan, nan, nan )

// A copy out whose buffer is written again before its wait: it reads the
// buffer at its issue on the deterministic schedule, later on some seeded
// ones, so the schedules disagree; the async check reports the write.
// RUN: mgpu-run %t/overwrite.mlir -e main --backend=emulate --check=none --emulate-schedules 1 | FileCheck %s --check-prefix=SEVEN
// RUN: not mgpu-run %t/overwrite.mlir -e main --backend=emulate --check=none --emulate-schedules 4 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: not mgpu-run %t/overwrite.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | FileCheck %s --check-prefix=REWRITE
// SEVEN: copied: 7
// DISAGREE: copied: 8
// DISAGREE: error: the emulator's schedule with seed 3 printed other output than seed 1; rerun it with --emulate-seed 3; its output:
// DISAGREE-NEXT: copied: 7
// REWRITE: overwrite.mlir:15:7: error: writes shared memory that a copy_smem_to_gmem of thread 0 (at {{.*}}overwrite.mlir:14:7) may still read
// REWRITE: schedule with seed 1 failed
// REWRITE: overwrite.mlir:15:7: error: writes shared memory
// REWRITE: schedule with seed 2 failed

// A bad seed is refused.
// RUN: not mgpu-run %t/overwrite.mlir -e main --backend=emulate --emulate-seed x 2>&1 | FileCheck %s --check-prefix=SEED
// SEED: mgpu-run: error: --emulate-seed: not a number: x

//--- overwrite.mlir
// A copy out whose buffer is written again before its wait.
#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
!smem = memref<128xf32, #gpu.address_space<workgroup>>
module {
  func.func @overwrite(%o: memref<128xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<128xf32>) scratch [!smem] {
    ^bb0(%oa: memref<128xf32>, %s: !smem):
      %c0 = arith.constant 0 : index
      %seven = arith.constant dense<7.0> : vector<128xf32>
      %eight = arith.constant dense<8.0> : vector<128xf32>
      vector.store %seven, %s[%c0] : !smem, vector<128xf32>
      mgpu.commit_smem
      // Wrong: the copy out may not have read the buffer yet.
      mgpu.copy_smem_to_gmem %s, %oa : !smem, memref<128xf32>
      vector.store %eight, %s[%c0] : !smem, vector<128xf32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %minus = arith.constant -1.0 : f32
    %o = memref.alloc() : memref<128xf32>
    linalg.fill ins(%minus : f32) outs(%o : memref<128xf32>)
    func.call @overwrite(%o) : (memref<128xf32>) -> ()
    %v = memref.load %o[%c0] : memref<128xf32>
    vector.print str "copied: "
    vector.print %v : f32
    memref.dealloc %o : memref<128xf32>
    return
  }
}
