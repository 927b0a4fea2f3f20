// Ref atomics (plgpu.atomic_add and friends) on every backend, in two
// shapes. @wg_add is JAX's test_atomic_add (tests/pallas/mosaic_gpu_test.py
// :4260): two Pallas threads atomically add their halves of the input into
// one shared-memory buffer, out = x + y. @grid_atomics has every program
// of a parallel grid combine into global-memory accumulators: a vector
// add (column sums), a histogram of program ids (scalar adds at a computed
// index), and max / min / and / or / xor of the program ids. All numbers are
// exact, so any lost or doubled update shows.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" | %python %mgpu_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX

// Each lane combines the elements it holds with PTX atomics: into shared
// memory for @wg_add, into global memory for @grid_atomics (integer max/min
// signed, bitwise kinds on b32).
// PTX-LABEL: .entry wg_add_kernel(
// PTX: atom.shared.add.f32
// PTX-LABEL: .entry grid_atomics_kernel(
// PTX-DAG: atom.global.add.u32
// PTX-DAG: atom.global.max.s32
// PTX-DAG: atom.global.min.s32
// PTX-DAG: atom.global.and.b32
// PTX-DAG: atom.global.or.b32
// PTX-DAG: atom.global.xor.b32

#wg = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#g16 = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#g8 = #mgpu.block_spec<shape = [8], index_map = affine_map<(p) -> (0)>, memory_space = gmem>
#x = #mgpu.block_spec<shape = [64], index_map = affine_map<(p) -> (p)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>
!smem = memref<128x64xf32, #gpu.address_space<workgroup>>

module {
  func.func @wg_add(%in: memref<256x64xf32>, %out: memref<128x64xf32>) {
    mgpu.mpmd_map meshes [#wg] ins(%in : memref<256x64xf32>)
        outs(%out : memref<128x64xf32>)
        scratch [!smem, !mgpu.barrier<count = 1, arrivals = 2>] {
    ^bb0(%i0: memref<256x64xf32>, %o0: memref<128x64xf32>, %s: !smem,
         %bar: !mgpu.barrier<count = 1, arrivals = 2>):
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant 0.0 : f32
      %wg = mgpu.axis_index "wg"
      %first = arith.cmpi eq, %wg, %c0 : index
      scf.if %first {
        %z = arith.constant dense<0.0> : vector<128x64xf32>
        vector.transfer_write %z, %s[%c0, %c0] {in_bounds = [true, true]}
            : vector<128x64xf32>, !smem
      }
      mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
      mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
      %row = arith.muli %wg, %c128 : index
      %v = vector.transfer_read %i0[%row, %c0], %pad {in_bounds = [true, true]}
          : memref<256x64xf32>, vector<128x64xf32>
      mgpu.atomic_store add %v, %s[%c0, %c0] : vector<128x64xf32>, !smem
      mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
      mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
      scf.if %first {
        %r = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]}
            : !smem, vector<128x64xf32>
        vector.transfer_write %r, %o0[%c0, %c0] {in_bounds = [true, true]}
            : vector<128x64xf32>, memref<128x64xf32>
      }
    }
    return
  }

  // 64 programs. sums[r, c] += x[p, c] for row r = p mod 16 (four programs
  // per row); hist[p mod 8] += 1 (scalar); red = [max p, min p, and, or,
  // xor of (p + 1)] over p.
  func.func @grid_atomics(%x: memref<4096xi32>, %sums: memref<16x64xi32>,
                          %hist: memref<8xi32>, %red: memref<8xi32>) {
    mgpu.pallas_call grid [64] ins(%x : memref<4096xi32>)
        outs(%sums, %hist, %red : memref<16x64xi32>, memref<8xi32>, memref<8xi32>)
        in_specs [#x] out_specs [#g16, #g8, #g8] params #params {
    ^bb0(%xs: memref<64xi32, #gpu.address_space<workgroup>>,
         %sm: memref<16x64xi32>, %h: memref<8xi32>, %rd: memref<8xi32>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %one = arith.constant 1 : i32
      %zero = arith.constant 0 : i32
      %p = mgpu.program_id 0
      %v = vector.transfer_read %xs[%c0], %zero {in_bounds = [true]}
          : memref<64xi32, #gpu.address_space<workgroup>>, vector<64xi32>
      %r = arith.remui %p, %c16 : index
      mgpu.atomic_store add %v, %sm[%r, %c0] : vector<64xi32>, memref<16x64xi32>
      %bin = arith.remui %p, %c8 : index
      mgpu.atomic_store add %one, %h[%bin] : i32, memref<8xi32>
      %pi = arith.index_cast %p : index to i32
      %p1 = arith.addi %pi, %one : i32
      mgpu.atomic_store max %pi, %rd[%c0] : i32, memref<8xi32>
      mgpu.atomic_store min %pi, %rd[%c1] : i32, memref<8xi32>
      mgpu.atomic_store and %p1, %rd[%c2] : i32, memref<8xi32>
      mgpu.atomic_store or %p1, %rd[%c3] : i32, memref<8xi32>
      mgpu.atomic_store xor %p1, %rd[%c4] : i32, memref<8xi32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32

    // JAX's inputs: x = 1 .. m*n, y = m*n .. 1, so x + y = m*n + 1 everywhere.
    %in = memref.alloc() : memref<256x64xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %k0 = arith.muli %i, %c64 : index
        %k = arith.addi %k0, %j : index
        %top = arith.cmpi ult, %i, %c128 : index
        %k1 = arith.addi %k, %c1 : index
        %rev = arith.subi %c256, %i : index
        %rk0 = arith.muli %rev, %c64 : index
        %rk = arith.subi %rk0, %j : index
        %val = arith.select %top, %k1, %rk : index
        %vi = arith.index_cast %val : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %in[%i, %j] : memref<256x64xf32>
      }
    }
    %out = memref.alloc() : memref<128x64xf32>
    %garbage = arith.constant -1.0 : f32
    linalg.fill ins(%garbage : f32) outs(%out : memref<128x64xf32>)
    func.call @wg_add(%in, %out) : (memref<256x64xf32>, memref<128x64xf32>) -> ()
    %want = arith.constant 8193.0 : f32
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zero) -> i32 {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %got = memref.load %out[%i, %j] : memref<128x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %m, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row : i32
    }
    // CHECK: wg_add mismatches: 0
    vector.print str "wg_add mismatches: "
    vector.print %bad : i32

    // x[k] = k; sums[r, c] = sum over q < 4 of x[(r + 16 q) * 64 + c]
    //                      = 4 * (64 r + c) + 64 * 16 * (0 + 1 + 2 + 3).
    %x = memref.alloc() : memref<4096xi32>
    scf.for %k = %c0 to %c4096 step %c1 {
      %ki = arith.index_cast %k : index to i32
      memref.store %ki, %x[%k] : memref<4096xi32>
    }
    %sums = memref.alloc() : memref<16x64xi32>
    linalg.fill ins(%zero : i32) outs(%sums : memref<16x64xi32>)
    %hist = memref.alloc() : memref<8xi32>
    linalg.fill ins(%zero : i32) outs(%hist : memref<8xi32>)
    // max from below, min from above, and from all ones, or/xor from zero.
    %red = memref.alloc() : memref<8xi32>
    linalg.fill ins(%zero : i32) outs(%red : memref<8xi32>)
    %low = arith.constant -5 : i32
    %high = arith.constant 1000 : i32
    %ones = arith.constant -1 : i32
    memref.store %low, %red[%c0] : memref<8xi32>
    %c1i = arith.constant 1 : index
    memref.store %high, %red[%c1i] : memref<8xi32>
    %c2i = arith.constant 2 : index
    memref.store %ones, %red[%c2i] : memref<8xi32>
    func.call @grid_atomics(%x, %sums, %hist, %red)
        : (memref<4096xi32>, memref<16x64xi32>, memref<8xi32>, memref<8xi32>) -> ()
    %c6144 = arith.constant 6144 : i32
    %c4i = arith.constant 4 : i32
    %sbad = scf.for %r = %c0 to %c16 step %c1 iter_args(%n = %zero) -> i32 {
      %row = scf.for %c = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %k0 = arith.muli %r, %c64 : index
        %k = arith.addi %k0, %c : index
        %ki = arith.index_cast %k : index to i32
        %w0 = arith.muli %ki, %c4i : i32
        %w = arith.addi %w0, %c6144 : i32
        %got = memref.load %sums[%r, %c] : memref<16x64xi32>
        %ne = arith.cmpi ne, %got, %w : i32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %m, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row : i32
    }
    // CHECK-NEXT: sums mismatches: 0
    vector.print str "sums mismatches: "
    vector.print %sbad : i32
    // Eight programs per bin.
    // CHECK-NEXT: hist: ( 8, 8, 8, 8, 8, 8, 8, 8 )
    vector.print str "hist: "
    %hv = vector.transfer_read %hist[%c0], %zero : memref<8xi32>, vector<8xi32>
    vector.print %hv : vector<8xi32>
    // max 63, min 0, and of 1..64 = 0, or of 1..64 = 127, xor of 1..64 = 64.
    // CHECK-NEXT: red: ( 63, 0, 0, 127, 64, 0, 0, 0 )
    vector.print str "red: "
    %rv = vector.transfer_read %red[%c0], %zero : memref<8xi32>, vector<8xi32>
    vector.print %rv : vector<8xi32>
    return
  }
}
