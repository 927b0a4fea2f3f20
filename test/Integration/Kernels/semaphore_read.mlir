// Semaphore waits without decrement and semaphore reads (JAX's
// SemaphoreTest) on every backend. @no_decrement is
// test_multiple_get_global_semaphores (tests/pallas/mosaic_gpu_test.py
// :9440): program 0 of 10 signals two semaphores by 5 and 10; program 1
// waits for both with decrement=False and reads them back: (5, 10). Here
// programs 2 to 9 also wait for the first without decrement, which only
// returns because no wait took the 5 away. @decrement_then_read is
// test_global_semaphore_with_multiple_warps with Pallas threads: thread 0
// signals 2, thread 1 waits for 2 (decrementing), and the read after a
// barrier sees 0; @read_own_signals is test_get_global_in_and_outside_
// control_flow: a program reads back what it signalled itself (3, 7, 11).
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning

// A wait without decrement spins on an atomic read (atom.or of 0), as does
// a read; a decrementing wait is a compare-and-swap loop.
// PTX-LABEL: .entry no_decrement_kernel(
// PTX: atom.global.or.b32
// PTX-NOT: atom.global.cas
// PTX-LABEL: .entry decrement_then_read_kernel(
// PTX: atom.acq_rel.sys.global.cas.b32
// PTX: atom.global.or.b32
// PTXAS0: Compiling entry function 'no_decrement_kernel' for 'sm_90a'
// PTXAS1: Compiling entry function 'decrement_then_read_kernel' for 'sm_90a'

#g2 = #mgpu.block_spec<shape = [2], index_map = affine_map<(p) -> (0)>, memory_space = gmem>
#g3 = #mgpu.block_spec<shape = [3], index_map = affine_map<(p) -> (0)>, memory_space = gmem>
#par = #mgpu.compiler_params<dimension_semantics = [parallel]>
#wg = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
!bar = !mgpu.barrier<count = 1, arrivals = 2>

module {
  func.func @no_decrement(%o: memref<2xi32>) {
    mgpu.pallas_call grid [10] outs(%o : memref<2xi32>) in_specs [] out_specs [#g2]
        scratch [memref<2xi32>] params #par {
    ^bb0(%og: memref<2xi32>, %sem: memref<2xi32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %five = arith.constant 5 : i32
      %ten = arith.constant 10 : i32
      %p = mgpu.program_id 0
      %first = arith.cmpi eq, %p, %c0 : index
      scf.if %first {
        mgpu.semaphore_signal %sem[%c0], %five : memref<2xi32>
        mgpu.semaphore_signal %sem[%c1], %ten : memref<2xi32>
      } else {
        mgpu.semaphore_wait %sem[%c0], %five {decrement = false} : memref<2xi32>
        %second = arith.cmpi eq, %p, %c1 : index
        scf.if %second {
          mgpu.semaphore_wait %sem[%c1], %ten {decrement = false} : memref<2xi32>
          %v1 = mgpu.semaphore_read %sem[%c0] : memref<2xi32>
          %v2 = mgpu.semaphore_read %sem[%c1] : memref<2xi32>
          memref.store %v1, %og[%c0] : memref<2xi32>
          memref.store %v2, %og[%c1] : memref<2xi32>
        }
      }
    }
    return
  }

  func.func @decrement_then_read(%o: memref<1xi32>) {
    mgpu.mpmd_map meshes [#wg] outs(%o : memref<1xi32>) scratch [memref<1xi32>, !bar] {
    ^bb0(%og: memref<1xi32>, %sem: memref<1xi32>, %b: !bar):
      %c0 = arith.constant 0 : index
      %two = arith.constant 2 : i32
      %t = mgpu.axis_index "wg"
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        mgpu.semaphore_signal %sem[%c0], %two : memref<1xi32>
      } else {
        mgpu.semaphore_wait %sem[%c0], %two : memref<1xi32>
      }
      mgpu.barrier_arrive %b[%c0] : !bar
      mgpu.barrier_wait %b[%c0] : !bar
      scf.if %first {
        %v = mgpu.semaphore_read %sem[%c0] : memref<1xi32>
        memref.store %v, %og[%c0] : memref<1xi32>
      }
    }
    return
  }

  func.func @read_own_signals(%o: memref<3xi32>) {
    mgpu.pallas_call grid [1] outs(%o : memref<3xi32>) in_specs [] out_specs [#g3]
        scratch [memref<3xi32>] {
    ^bb0(%og: memref<3xi32>, %sem: memref<3xi32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %three = arith.constant 3 : i32
      %seven = arith.constant 7 : i32
      %eleven = arith.constant 11 : i32
      mgpu.semaphore_signal %sem[%c1], %seven : memref<3xi32>
      mgpu.semaphore_signal %sem[%c0], %three : memref<3xi32>
      %inside = mgpu.semaphore_read %sem[%c1] : memref<3xi32>
      memref.store %inside, %og[%c1] : memref<3xi32>
      mgpu.semaphore_signal %sem[%c2], %eleven : memref<3xi32>
      %before = mgpu.semaphore_read %sem[%c0] : memref<3xi32>
      %after = mgpu.semaphore_read %sem[%c2] : memref<3xi32>
      memref.store %before, %og[%c0] : memref<3xi32>
      memref.store %after, %og[%c2] : memref<3xi32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %minus = arith.constant -1 : i32
    %o = memref.alloc() : memref<2xi32>
    linalg.fill ins(%minus : i32) outs(%o : memref<2xi32>)
    func.call @no_decrement(%o) : (memref<2xi32>) -> ()
    %v = vector.transfer_read %o[%c0], %minus : memref<2xi32>, vector<2xi32>
    // CHECK: no_decrement: ( 5, 10 )
    vector.print str "no_decrement: "
    vector.print %v : vector<2xi32>
    %o1 = memref.alloc() : memref<1xi32>
    linalg.fill ins(%minus : i32) outs(%o1 : memref<1xi32>)
    func.call @decrement_then_read(%o1) : (memref<1xi32>) -> ()
    %r = memref.load %o1[%c0] : memref<1xi32>
    // CHECK-NEXT: decrement_then_read: 0
    vector.print str "decrement_then_read: "
    vector.print %r : i32
    %o3 = memref.alloc() : memref<3xi32>
    linalg.fill ins(%minus : i32) outs(%o3 : memref<3xi32>)
    func.call @read_own_signals(%o3) : (memref<3xi32>) -> ()
    %w = vector.transfer_read %o3[%c0], %minus : memref<3xi32>, vector<3xi32>
    // CHECK-NEXT: read_own_signals: ( 3, 7, 11 )
    vector.print str "read_own_signals: "
    vector.print %w : vector<3xi32>
    return
  }
}
