// TMA reduce stores (plgpu.copy_smem_to_gmem(..., reduction_op=...)) on
// every backend, in two shapes. @pipeline_add_* is JAX's
// test_copy_smem_to_gmem_reduction (tests/pallas/mosaic_gpu_test.py:1000)
// for f32, f16 and bf16: one program pipelines 200 blocks of 128 ones
// through shared memory and adds each block into the same 128 outputs, so
// out = 200 everywhere. @kinds has 8 programs of a parallel grid combine
// into the same global rows with every other kind (i32 add, inc, dec, and,
// or, xor; i64 add; f16 min and max) and one window that runs past the end
// of its array (the elements past it are dropped). All numbers are exact, so
// a lost or doubled update, or a plain store instead of a reduction, shows.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// Each kernel is its own PTX module; ptxas assembles each.
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning
// RUN: %extract_ptx --object 2 %t.mlir -o %t.2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS2 --implicit-check-not=warning
// RUN: %extract_ptx --object 3 %t.mlir -o %t.3.ptx
// RUN: %ptxas -arch=sm_90a -v %t.3.ptx -o %t.3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS3 --implicit-check-not=warning

// One cp.reduce.async.bulk.tensor per box on sm_90a, its kind from the op
// and its element type from the tensor map.
// PTX-LABEL: .entry pipeline_add_f32_kernel(
// PTX: cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group
// PTX-LABEL: .entry kinds_kernel(
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.dec.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group
// PTXAS0: Compiling entry function 'pipeline_add_f32_kernel' for 'sm_90a'
// PTXAS1: Compiling entry function 'pipeline_add_f16_kernel' for 'sm_90a'
// PTXAS2: Compiling entry function 'pipeline_add_bf16_kernel' for 'sm_90a'
// PTXAS3: Compiling entry function 'kinds_kernel' for 'sm_90a'

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#g6 = #mgpu.block_spec<shape = [6, 64], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#g2 = #mgpu.block_spec<shape = [2, 64], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#g64 = #mgpu.block_spec<shape = [64], index_map = affine_map<(p) -> (0)>, memory_space = gmem>
#edge = #mgpu.block_spec<shape = [1, 100], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>
!row = memref<1x64xi32, #gpu.address_space<workgroup>>
!hrow = memref<1x64xf16, #gpu.address_space<workgroup>>
!wide = memref<64xi64, #gpu.address_space<workgroup>>

module {
  func.func @pipeline_add_f32(%x: memref<25600xf32>, %o: memref<128xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<25600xf32>) outs(%o : memref<128xf32>)
        scratch [memref<128xf32, #gpu.address_space<workgroup>>] {
    ^bb0(%xg: memref<25600xf32>, %og: memref<128xf32>,
         %s: memref<128xf32, #gpu.address_space<workgroup>>):
      mgpu.emit_pipeline grid [200] ins(%xg : memref<25600xf32>) in_specs [#block] out_specs [] {
      ^bb0(%k: index, %xs: memref<128xf32, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %v = vector.load %xs[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        vector.store %v, %s[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        mgpu.commit_smem
        mgpu.copy_smem_to_gmem %s, %og reduction add
            : memref<128xf32, #gpu.address_space<workgroup>>, memref<128xf32>
        mgpu.wait_smem_to_gmem 0
      }
    }
    return
  }

  func.func @pipeline_add_f16(%x: memref<25600xf16>, %o: memref<128xf16>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<25600xf16>) outs(%o : memref<128xf16>)
        scratch [memref<128xf16, #gpu.address_space<workgroup>>] {
    ^bb0(%xg: memref<25600xf16>, %og: memref<128xf16>,
         %s: memref<128xf16, #gpu.address_space<workgroup>>):
      mgpu.emit_pipeline grid [200] ins(%xg : memref<25600xf16>) in_specs [#block] out_specs [] {
      ^bb0(%k: index, %xs: memref<128xf16, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %v = vector.load %xs[%c0] : memref<128xf16, #gpu.address_space<workgroup>>, vector<128xf16>
        vector.store %v, %s[%c0] : memref<128xf16, #gpu.address_space<workgroup>>, vector<128xf16>
        mgpu.commit_smem
        mgpu.copy_smem_to_gmem %s, %og reduction add
            : memref<128xf16, #gpu.address_space<workgroup>>, memref<128xf16>
        mgpu.wait_smem_to_gmem 0
      }
    }
    return
  }

  func.func @pipeline_add_bf16(%x: memref<25600xbf16>, %o: memref<128xbf16>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<25600xbf16>) outs(%o : memref<128xbf16>)
        scratch [memref<128xbf16, #gpu.address_space<workgroup>>] {
    ^bb0(%xg: memref<25600xbf16>, %og: memref<128xbf16>,
         %s: memref<128xbf16, #gpu.address_space<workgroup>>):
      mgpu.emit_pipeline grid [200] ins(%xg : memref<25600xbf16>) in_specs [#block] out_specs [] {
      ^bb0(%k: index, %xs: memref<128xbf16, #gpu.address_space<workgroup>>):
        %c0 = arith.constant 0 : index
        %v = vector.load %xs[%c0] : memref<128xbf16, #gpu.address_space<workgroup>>, vector<128xbf16>
        vector.store %v, %s[%c0] : memref<128xbf16, #gpu.address_space<workgroup>>, vector<128xbf16>
        mgpu.commit_smem
        mgpu.copy_smem_to_gmem %s, %og reduction add
            : memref<128xbf16, #gpu.address_space<workgroup>>, memref<128xbf16>
        mgpu.wait_smem_to_gmem 0
      }
    }
    return
  }

  // Program p of 8, lane j of 64:
  //   ints[0] += 64 p + j          -> 1792 + 8 j
  //   ints[1] inc 5, from 0        -> 1 2 3 4 5 0 1 2      = 2
  //   ints[2] dec 5, from 3        -> 2 1 0 5 4 3 2 1      = 1
  //   ints[3] and ~(1 << p), from -1 -> -256
  //   ints[4] or (1 << p), from 0  -> 255
  //   ints[5] xor (p + 1), from 0  -> 1 ^ 2 ^ ... ^ 8      = 8
  //   wide    += p * 2^32 + j      -> 28 * 2^32 + 8 j
  //   halves[0] min (p + j), from 100; halves[1] max (p + j), from -100
  //   edge[0, 60 + j] += 1 for j < 40 (the rest of the window is past it)
  func.func @kinds(%ints: memref<6x64xi32>, %wide: memref<64xi64>,
                   %halves: memref<2x64xf16>, %edge: memref<1x100xi32>) {
    mgpu.pallas_call grid [8]
        outs(%ints, %wide, %halves, %edge
             : memref<6x64xi32>, memref<64xi64>, memref<2x64xf16>, memref<1x100xi32>)
        in_specs [] out_specs [#g6, #g64, #g2, #edge]
        scratch [!row, !wide, !hrow] params #params {
    ^bb0(%ig: memref<6x64xi32>, %wg: memref<64xi64>, %hg: memref<2x64xf16>,
         %eg: memref<1x100xi32>, %r: !row, %w: !wide, %h: !hrow):
      %c0 = arith.constant 0 : index
      %p = mgpu.program_id 0
      %pi = arith.index_cast %p : index to i32
      %lanes = vector.step : vector<64xindex>
      %j = arith.index_cast %lanes : vector<64xindex> to vector<64xi32>
      %pv = vector.broadcast %pi : i32 to vector<64xi32>
      %c64 = arith.constant dense<64> : vector<64xi32>
      %p64 = arith.muli %pv, %c64 : vector<64xi32>
      %add = arith.addi %p64, %j : vector<64xi32>
      %five = arith.constant dense<5> : vector<64xi32>
      %one = arith.constant dense<1> : vector<64xi32>
      %bit = arith.shli %one, %pv : vector<64xi32>
      %ones = arith.constant dense<-1> : vector<64xi32>
      %notbit = arith.xori %bit, %ones : vector<64xi32>
      %p1 = arith.addi %pv, %one : vector<64xi32>

      // Each value in turn through the one row buffer: write it, make it
      // visible to the async copies, combine it, and wait until the copy
      // has read the buffer before writing the next.
      vector.store %add, %r[%c0, %c0] : !row, vector<64xi32>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %r, %ig[0, 0] reduction add : !row, memref<6x64xi32>
      mgpu.wait_smem_to_gmem 0 read_only
      vector.store %five, %r[%c0, %c0] : !row, vector<64xi32>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %r, %ig[1, 0] reduction inc {commit_group = false} : !row, memref<6x64xi32>
      mgpu.copy_smem_to_gmem %r, %ig[2, 0] reduction dec : !row, memref<6x64xi32>
      mgpu.wait_smem_to_gmem 0 read_only
      vector.store %notbit, %r[%c0, %c0] : !row, vector<64xi32>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %r, %ig[3, 0] reduction and : !row, memref<6x64xi32>
      mgpu.wait_smem_to_gmem 0 read_only
      vector.store %bit, %r[%c0, %c0] : !row, vector<64xi32>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %r, %ig[4, 0] reduction or : !row, memref<6x64xi32>
      mgpu.wait_smem_to_gmem 0 read_only
      vector.store %p1, %r[%c0, %c0] : !row, vector<64xi32>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %r, %ig[5, 0] reduction xor : !row, memref<6x64xi32>
      mgpu.wait_smem_to_gmem 0 read_only
      vector.store %one, %r[%c0, %c0] : !row, vector<64xi32>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %r, %eg[0, 60] reduction add : !row, memref<1x100xi32>

      %pw = arith.extsi %pv : vector<64xi32> to vector<64xi64>
      %jw = arith.extsi %j : vector<64xi32> to vector<64xi64>
      %c32 = arith.constant dense<32> : vector<64xi64>
      %hi = arith.shli %pw, %c32 : vector<64xi64>
      %wv = arith.addi %hi, %jw : vector<64xi64>
      vector.store %wv, %w[%c0] : !wide, vector<64xi64>

      %pj = arith.addi %pv, %j : vector<64xi32>
      %hv = arith.sitofp %pj : vector<64xi32> to vector<64xf16>
      vector.store %hv, %h[%c0, %c0] : !hrow, vector<64xf16>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %w, %wg reduction add : !wide, memref<64xi64>
      mgpu.copy_smem_to_gmem %h, %hg[0, 0] reduction min : !hrow, memref<2x64xf16>
      mgpu.copy_smem_to_gmem %h, %hg[1, 0] reduction max : !hrow, memref<2x64xf16>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0 : i32

    // JAX's shape: x = ones(200 * 128), out = 200 * ones(128).
    %xf = memref.alloc() : memref<25600xf32>
    %of = memref.alloc() : memref<128xf32>
    %onef = arith.constant 1.0 : f32
    %zf = arith.constant 0.0 : f32
    linalg.fill ins(%onef : f32) outs(%xf : memref<25600xf32>)
    linalg.fill ins(%zf : f32) outs(%of : memref<128xf32>)
    func.call @pipeline_add_f32(%xf, %of) : (memref<25600xf32>, memref<128xf32>) -> ()
    %want = arith.constant 200.0 : f32
    %badf = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zero) -> i32 {
      %got = memref.load %of[%i] : memref<128xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: f32 mismatches: 0
    vector.print str "f32 mismatches: "
    vector.print %badf : i32

    %xh = memref.alloc() : memref<25600xf16>
    %oh = memref.alloc() : memref<128xf16>
    %oneh = arith.constant 1.0 : f16
    %zh = arith.constant 0.0 : f16
    linalg.fill ins(%oneh : f16) outs(%xh : memref<25600xf16>)
    linalg.fill ins(%zh : f16) outs(%oh : memref<128xf16>)
    func.call @pipeline_add_f16(%xh, %oh) : (memref<25600xf16>, memref<128xf16>) -> ()
    %badh = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zero) -> i32 {
      %got = memref.load %oh[%i] : memref<128xf16>
      %gotf = arith.extf %got : f16 to f32
      %ne = arith.cmpf une, %gotf, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    // CHECK-NEXT: f16 mismatches: 0
    vector.print str "f16 mismatches: "
    vector.print %badh : i32

    %xb = memref.alloc() : memref<25600xbf16>
    %ob = memref.alloc() : memref<128xbf16>
    %oneb = arith.constant 1.0 : bf16
    %zb = arith.constant 0.0 : bf16
    linalg.fill ins(%oneb : bf16) outs(%xb : memref<25600xbf16>)
    linalg.fill ins(%zb : bf16) outs(%ob : memref<128xbf16>)
    func.call @pipeline_add_bf16(%xb, %ob) : (memref<25600xbf16>, memref<128xbf16>) -> ()
    %badb = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zero) -> i32 {
      %got = memref.load %ob[%i] : memref<128xbf16>
      %gotf = arith.extf %got : bf16 to f32
      %ne = arith.cmpf une, %gotf, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    // CHECK-NEXT: bf16 mismatches: 0
    vector.print str "bf16 mismatches: "
    vector.print %badb : i32

    %ints = memref.alloc() : memref<6x64xi32>
    linalg.fill ins(%zero : i32) outs(%ints : memref<6x64xi32>)
    %three = arith.constant 3 : i32
    %minus1 = arith.constant -1 : i32
    %wide = memref.alloc() : memref<64xi64>
    %zw = arith.constant 0 : i64
    linalg.fill ins(%zw : i64) outs(%wide : memref<64xi64>)
    %halves = memref.alloc() : memref<2x64xf16>
    %edge = memref.alloc() : memref<1x100xi32>
    linalg.fill ins(%zero : i32) outs(%edge : memref<1x100xi32>)
    %hundred = arith.constant 100.0 : f16
    %mhundred = arith.constant -100.0 : f16
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %three, %ints[%c2, %j] : memref<6x64xi32>
      memref.store %minus1, %ints[%c3, %j] : memref<6x64xi32>
      memref.store %hundred, %halves[%c0, %j] : memref<2x64xf16>
      memref.store %mhundred, %halves[%c1, %j] : memref<2x64xf16>
    }
    func.call @kinds(%ints, %wide, %halves, %edge)
        : (memref<6x64xi32>, memref<64xi64>, memref<2x64xf16>, memref<1x100xi32>) -> ()
    // Counts the elements of row `k` of %ints that differ from `want(j)`.
    %c8i = arith.constant 8 : i32
    %c1792 = arith.constant 1792 : i32
    %badadd = scf.for %j = %c0 to %c64 step %c1 iter_args(%n = %zero) -> i32 {
      %ji = arith.index_cast %j : index to i32
      %j8 = arith.muli %ji, %c8i : i32
      %w = arith.addi %j8, %c1792 : i32
      %got = memref.load %ints[%c0, %j] : memref<6x64xi32>
      %ne = arith.cmpi ne, %got, %w : i32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    // CHECK-NEXT: i32 add mismatches: 0
    vector.print str "i32 add mismatches: "
    vector.print %badadd : i32
    %r1 = vector.transfer_read %ints[%c1, %c0], %zero : memref<6x64xi32>, vector<4xi32>
    %r2 = vector.transfer_read %ints[%c2, %c0], %zero : memref<6x64xi32>, vector<4xi32>
    %r3 = vector.transfer_read %ints[%c3, %c0], %zero : memref<6x64xi32>, vector<4xi32>
    %r4 = vector.transfer_read %ints[%c4, %c0], %zero : memref<6x64xi32>, vector<4xi32>
    %r5 = vector.transfer_read %ints[%c5, %c0], %zero : memref<6x64xi32>, vector<4xi32>
    // CHECK-NEXT: inc: ( 2, 2, 2, 2 )
    vector.print str "inc: "
    vector.print %r1 : vector<4xi32>
    // CHECK-NEXT: dec: ( 1, 1, 1, 1 )
    vector.print str "dec: "
    vector.print %r2 : vector<4xi32>
    // CHECK-NEXT: and: ( -256, -256, -256, -256 )
    vector.print str "and: "
    vector.print %r3 : vector<4xi32>
    // CHECK-NEXT: or: ( 255, 255, 255, 255 )
    vector.print str "or: "
    vector.print %r4 : vector<4xi32>
    // CHECK-NEXT: xor: ( 8, 8, 8, 8 )
    vector.print str "xor: "
    vector.print %r5 : vector<4xi32>
    // 28 * 2^32 = 120259084288.
    %wv = vector.transfer_read %wide[%c0], %zw : memref<64xi64>, vector<4xi64>
    // CHECK-NEXT: i64 add: ( 120259084288, 120259084296, 120259084304, 120259084312 )
    vector.print str "i64 add: "
    vector.print %wv : vector<4xi64>
    %zhf = arith.constant 0.0 : f16
    %hmin = vector.transfer_read %halves[%c0, %c0], %zhf : memref<2x64xf16>, vector<4xf16>
    %hmax = vector.transfer_read %halves[%c1, %c0], %zhf : memref<2x64xf16>, vector<4xf16>
    %hminf = arith.extf %hmin : vector<4xf16> to vector<4xf32>
    %hmaxf = arith.extf %hmax : vector<4xf16> to vector<4xf32>
    // CHECK-NEXT: f16 min: ( 0, 1, 2, 3 )
    vector.print str "f16 min: "
    vector.print %hminf : vector<4xf32>
    // CHECK-NEXT: f16 max: ( 7, 8, 9, 10 )
    vector.print str "f16 max: "
    vector.print %hmaxf : vector<4xf32>
    %e0 = vector.transfer_read %edge[%c0, %c0], %zero : memref<1x100xi32>, vector<100xi32>
    %esum = vector.reduction <add>, %e0 : vector<100xi32> into i32
    %c56 = arith.constant 56 : index
    %etail = vector.transfer_read %edge[%c0, %c56], %zero : memref<1x100xi32>, vector<8xi32>
    // 40 elements of 8 each; 56..59 untouched.
    // CHECK-NEXT: edge sum: 320
    vector.print str "edge sum: "
    vector.print %esum : i32
    // CHECK-NEXT: edge 56..63: ( 0, 0, 0, 0, 8, 8, 8, 8 )
    vector.print str "edge 56..63: "
    vector.print %etail : vector<8xi32>
    return
  }
}
