// Interpret mode and the emulator check memory accesses at run time: an
// index out of bounds, in a kernel body or in host code, stops the program
// with an error at the access (exit code 1) instead of reading or writing
// other memory, which corrupted the heap or hung (found by utils/fuzz.py).
// On a GPU such an access is undefined behaviour and is not checked.
// RUN: rm -rf %t && split-file %s %t
// RUN: not mgpu-run %t/vector.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not mgpu-run %t/vector.mlir -e main --backend=emulate --check=none 2>&1 | FileCheck %s --check-prefix=VECTOR
// The emulator's own bounds check of shared memory (--check=bounds, on by
// default) sees the access first.
// RUN: not mgpu-run %t/vector.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=VECTOR-SMEM
// RUN: not mgpu-run %t/gmem.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=GMEM
// RUN: not mgpu-run %t/gmem.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=GMEM
// RUN: not mgpu-run %t/host.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not mgpu-run %t/host.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=HOST
// A vector store at an index near INT64_MAX, where index + size wraps: the
// check compares without a sum (it let the store through before: SIGSEGV
// with i8 elements on the emulator, a silent heap overwrite with f32 on the
// CPU).
// RUN: not mgpu-run %t/wrap.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: not mgpu-run %t/wrap.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: sed -e 's/xi8/xf32/g' -e 's/dense<7>/dense<7.0>/' %t/wrap.mlir > %t/wrap-f32.mlir
// RUN: not mgpu-run %t/wrap-f32.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: not mgpu-run %t/wrap-f32.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=WRAP
// A dimension index out of range is checked too. LLVM 22's gpu
// canonicalization crashed on a constant one (llvm-project#205073); every
// pipeline leaves that pattern out, so it also compiles for the GPU.
// RUN: not mgpu-run %t/dim.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not mgpu-run %t/dim.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: mgpu-opt %t/dim.mlir --mgpu-to-binary="chip=sm_90a format=isa" | FileCheck %s --check-prefix=DIM-GPU

// A semaphore wait's index is checked too: out of range, the host runtime
// read a wild address (SIGSEGV, found by utils/fuzz.py).
// RUN: not mgpu-run %t/semaphore.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=SEMAPHORE
// RUN: not mgpu-run %t/semaphore.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=SEMAPHORE
// A RefUnion's ref (a memref.view of a byte buffer) at a shift known only
// at run time, past the buffer's end: checked at the view (interpret mode
// wrote past its arena and aborted with a corrupted heap). A constant
// shift is refused by the verifier (Dialect/MGPU/ref_union_invalid.mlir).
// RUN: not mgpu-run %t/view.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: not mgpu-run %t/view.mlir -e main --backend=emulate --check=none 2>&1 | FileCheck %s --check-prefix=VIEW

// VECTOR: vector.mlir:12:12: error: vector access out of bounds of its memref (a runtime check of the host backends)
// VECTOR-SMEM: vector.mlir:12:12: error: reads 16 bytes at offset 752 of shared memory, outside the CTA's 520 bytes (an emulator check; --check=none turns them off)
// GMEM: gmem.mlir:12:12: error: out-of-bounds access (a runtime check of the host backends)
// HOST: host.mlir:5:10: error: out-of-bounds access (a runtime check of the host backends)
// DIM: dim.mlir:6:10: error: index is out of bounds (a runtime check of the host backends)
// CLIPPED: clipped.mlir:15:12: error: out-of-bounds access (a runtime check of the host backends)
// CLIPPED-EMU: clipped.mlir:15:12: error: reads shared memory that nothing wrote
// CLIPPED-PIPELINED: clipped-pipelined.mlir:13:7: error: vector access out of bounds of its memref (a runtime check of the host backends)
// CLIPPED-EMIT-ASYNC: clipped-emit.mlir:20:9: error: writes shared memory that a copy_smem_to_gmem of thread 0 (at {{.*}}clipped-emit.mlir:9:7) may still read: no mgpu.wait_smem_to_gmem that completes it happens before this write
// CLIPPED-EMIT: clipped-emit.mlir:20:9: error: out-of-bounds access (a runtime check of the host backends)
// DIM-GPU: gpu.binary
// VIEW: view.mlir:12:12: error: memref.view out of bounds of its buffer (a runtime check of the host backends)
// SEMAPHORE: semaphore.mlir:12:7: error: out-of-bounds access (a runtime check of the host backends)
// WRAP: wrap{{(-f32)?}}.mlir:11:7: error: vector access out of bounds of its memref (a runtime check of the host backends)
// A block past the array is clipped as TMA clips it (zeros in, writes
// dropped), which is not an error (program_id_in_block_spec.mlir); an access
// past the block itself still is, in that program too, pipelined or not.
// RUN: not mgpu-run %t/clipped.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=CLIPPED
// The emulator reports the access at the same op, first as a read of the
// shared memory after the block, which nothing wrote (undefined on the GPU).
// RUN: not mgpu-run %t/clipped.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=CLIPPED-EMU
// RUN: not mgpu-run %t/clipped.mlir -e main --backend=emulate --check=none 2>&1 | FileCheck %s --check-prefix=CLIPPED
// RUN: not mgpu-run %t/clipped-pipelined.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=CLIPPED-PIPELINED
// RUN: not mgpu-run %t/clipped-pipelined.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=CLIPPED-PIPELINED
// The same in a hand pipeline (emit_pipeline_past_array.mlir), in its step
// whose block lies wholly past the array.
// RUN: not mgpu-run %t/clipped-emit.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=CLIPPED-EMIT
// RUN: not mgpu-run %t/clipped-emit.mlir -e main --backend=emulate --check=none 2>&1 | FileCheck %s --check-prefix=CLIPPED-EMIT
// The row past the block is the other slot's, which its copy out still
// reads: the emulator's async check sees that first.
// RUN: not mgpu-run %t/clipped-emit.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=CLIPPED-EMIT-ASYNC

//--- vector.mlir
#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
module {
  func.func @main() {
    %x = memref.alloc() : memref<256xf32>
    mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) outs(%x : memref<256xf32>)
        in_specs [#block] out_specs [#block] {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %pad = arith.constant 0.0 : f32
      // Elements 64 to 191 of a 128-element block.
      %c64 = arith.constant 64 : index
      %v = vector.transfer_read %xs[%c64], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    }
    return
  }
}

//--- gmem.mlir
#blk = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
module {
  func.func @main() {
    %t = memref.alloc() : memref<8xf32>
    mgpu.pallas_call grid [2] ins(%t : memref<8xf32>) outs(%t : memref<8xf32>)
        in_specs [#blk] out_specs [#blk] {
    ^bb0(%ts: memref<8xf32>, %os: memref<8xf32>):
      %i = mgpu.program_id 0
      %c7 = arith.constant 7 : index
      %j = arith.addi %i, %c7 : index
      // Element 8 in the second program.
      %v = memref.load %ts[%j] : memref<8xf32>
    }
    return
  }
}

//--- host.mlir
module {
  func.func @main() {
    %m = memref.alloc() : memref<4xf32>
    %c4 = arith.constant 4 : index
    %v = memref.load %m[%c4] : memref<4xf32>
    vector.print %v : f32
    return
  }
}

//--- dim.mlir
#whole = #mgpu.block_spec<shape = [4], index_map = affine_map<(i) -> (0)>>
module {
  func.func @main() {
    %m = memref.alloc() : memref<4xf32>
    %c-1 = arith.constant -1 : index
    %n = memref.dim %m, %c-1 : memref<4xf32>
    vector.print %n : index
    mgpu.pallas_call grid [1] ins(%m : memref<4xf32>) in_specs [#whole]
        out_specs [] {
    ^bb0(%ms: memref<4xf32, #gpu.address_space<workgroup>>):
      %c-2 = arith.constant -2 : index
      %d = memref.dim %ms, %c-2 : memref<4xf32, #gpu.address_space<workgroup>>
      %i = arith.index_cast %d : index to i32
      %f = arith.sitofp %i : i32 to f32
      %c0 = arith.constant 0 : index
      memref.store %f, %ms[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    }
    return
  }
}

//--- wrap.mlir
#whole = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
module {
  func.func @main() {
    %m = memref.alloc() : memref<8xi8>
    mgpu.pallas_call grid [1] ins(%m : memref<8xi8>) outs(%m : memref<8xi8>)
        in_specs [#whole] out_specs [#whole] {
    ^bb0(%ms: memref<8xi8>, %os: memref<8xi8>):
      // INT64_MAX - 1: the end of the 4 elements wraps to a negative index.
      %big = arith.constant 9223372036854775806 : index
      %v = arith.constant dense<7> : vector<4xi8>
      vector.store %v, %os[%big] : memref<8xi8>, vector<4xi8>
    }
    return
  }
}

//--- clipped.mlir
#spec = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(i) -> (i, i)>>
module {
  func.func @main() {
    %x = memref.alloc() : memref<2x128xi32>
    %o = memref.alloc() : memref<2x128xi32>
    mgpu.pallas_call grid [2] ins(%x : memref<2x128xi32>) outs(%o : memref<2x128xi32>)
        in_specs [#spec] out_specs [#spec] {
    ^bb0(%xs: memref<2x128xi32, #gpu.address_space<workgroup>>,
         %os: memref<2x128xi32, #gpu.address_space<workgroup>>):
      // Row 1 of its block in program 0, row 2 (past its block) in program 1.
      %i = mgpu.program_id 0
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %at = arith.addi %i, %c1 : index
      %w = memref.load %xs[%at, %c0] : memref<2x128xi32, #gpu.address_space<workgroup>>
      memref.store %w, %os[%c0, %c0] : memref<2x128xi32, #gpu.address_space<workgroup>>
    }
    return
  }
}

//--- clipped-pipelined.mlir
#spec = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i, j) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential], max_concurrent_steps = 2>
module {
  func.func @main() {
    %o = memref.alloc() : memref<16x64xi32>
    mgpu.pallas_call grid [4, 4] outs(%o : memref<16x64xi32>)
        in_specs [] out_specs [#spec] params #params {
    ^bb0(%os: memref<16x16xi32, #gpu.address_space<workgroup>>):
      // Columns 8 to 23 of a 16-column block.
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %v = arith.constant dense<7> : vector<16x16xi32>
      vector.transfer_write %v, %os[%c0, %c8] {in_bounds = [true, true]}
          : vector<16x16xi32>, memref<16x16xi32, #gpu.address_space<workgroup>>
    }
    return
  }
}

//--- clipped-emit.mlir
#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#diag = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(k) -> (k, k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
module {
  func.func @main() {
    %x = memref.alloc() : memref<2x128xi32>
    mgpu.mpmd_map meshes [#mesh] outs(%x : memref<2x128xi32>) {
    ^bb0(%xa: memref<2x128xi32>):
      mgpu.emit_pipeline grid [3] outs(%xa : memref<2x128xi32>)
          in_specs [] out_specs [#diag] params #two {
      ^bb0(%k: index, %xs: memref<2x128xi32, #gpu.address_space<workgroup>>):
        // Row 0 of its block in steps 0 and 1, row 2 (past its block) in
        // step 2, whose block is wholly past the array.
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %first = arith.cmpi ule, %k, %c1 : index
        %c2 = arith.constant 2 : index
        %row = arith.select %first, %c0, %c2 : index
        %v = arith.constant 7 : i32
        memref.store %v, %xs[%row, %c0] : memref<2x128xi32, #gpu.address_space<workgroup>>
      }
    }
    return
  }
}

//--- semaphore.mlir
#m = #mgpu.mesh<grid = [1], grid_names = ["g"]>
module {
  func.func @main() {
    %o = memref.alloc() : memref<4xf32>
    mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) scratch [memref<1xi32>] {
    ^bb0(%os: memref<4xf32>, %sem: memref<1xi32>):
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      mgpu.semaphore_signal %sem[%c0], %one : memref<1xi32>
      // Semaphore 2^32 of an array of 1.
      %far = arith.constant 4294967296 : index
      mgpu.semaphore_wait %sem[%far], %one
          : memref<1xi32>
    }
    return
  }
}

//--- view.mlir
#ws = #gpu.address_space<workgroup>
#g = #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
#o = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
module {
  func.func @union(%shift: memref<1xi32>, %o: memref<128xf32>) {
    mgpu.pallas_call grid [1] ins(%shift : memref<1xi32>) outs(%o : memref<128xf32>) in_specs [#g] out_specs [#o] scratch [memref<2048xi8, #ws>] {
    ^bb0(%sg: memref<1xi32>, %og: memref<128xf32>, %u: memref<2048xi8, #ws>):
      %c0 = arith.constant 0 : index
      %s32 = memref.load %sg[%c0] : memref<1xi32>
      %s = arith.index_cast %s32 : i32 to index
      // 2048 bytes at byte 1024 of 2048.
      %r = memref.view %u[%s][] : memref<2048xi8, #ws> to memref<512xf32, #ws>
      %one = arith.constant dense<1.0> : vector<512xf32>
      vector.transfer_write %one, %r[%c0] {in_bounds = [true]} : vector<512xf32>, memref<512xf32, #ws>
    }
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %shift = memref.alloc() : memref<1xi32>
    %v = arith.constant 1024 : i32
    memref.store %v, %shift[%c0] : memref<1xi32>
    %o = memref.alloc() : memref<128xf32>
    func.call @union(%shift, %o) : (memref<1xi32>, memref<128xf32>) -> ()
    memref.dealloc %o : memref<128xf32>
    memref.dealloc %shift : memref<1xi32>
    return
  }
}
