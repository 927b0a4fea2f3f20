// Signed and unsigned integer min/max, where the two disagree: TMA reduce
// stores (copy_smem_to_gmem reduction smin|smax|umin|umax, JAX's
// reduction_op names) on i32 and i64, and ref atomics (atomic_store
// max|min, signed, and umax|umin) on i32. Program p of 4, lane j of 64,
// stores v = (p - 2) * 1000 * (j + 1): -2000 (j + 1), -1000 (j + 1), 0 and
// 1000 (j + 1). Every output starts at 5. Signed: min -2000 (j + 1), max
// 1000 (j + 1). Unsigned (the negatives are above 2^31, resp. 2^63): min
// 0, max -1000 (j + 1). A signed compare in place of an unsigned one (or
// the reverse) gets every element of its row wrong.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s --mlir-print-ir-after=mgpu-primitives-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAPS

// CHECK: tma i32 smin: 0 wrong
// CHECK-NEXT: tma i32 smax: 0 wrong
// CHECK-NEXT: tma i32 umin: 0 wrong
// CHECK-NEXT: tma i32 umax: 0 wrong
// CHECK-NEXT: tma i64 smin: 0 wrong
// CHECK-NEXT: tma i64 smax: 0 wrong
// CHECK-NEXT: tma i64 umin: 0 wrong
// CHECK-NEXT: tma i64 umax: 0 wrong
// CHECK-NEXT: atomic i32 min: 0 wrong
// CHECK-NEXT: atomic i32 max: 0 wrong
// CHECK-NEXT: atomic i32 umin: 0 wrong
// CHECK-NEXT: atomic i32 umax: 0 wrong

// The PTX min/max of the reduce stores take their type from the tensor
// map: INT32/INT64 (3, 5) for smin/smax, UINT32/UINT64 (2, 4) for umin/umax;
// the atomics are atom.min/max .s32 and .u32.
// PTX-LABEL: .entry minmax_kernel(
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group
// PTX-DAG: cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group
// PTX-DAG: atom.global.min.s32
// PTX-DAG: atom.global.max.s32
// PTX-DAG: atom.global.min.u32
// PTX-DAG: atom.global.max.u32
// PTXAS: Compiling entry function 'minmax_kernel' for 'sm_90a'
// MAPS-DAG: nvgpu.tma.create.descriptor %{{.*}} : memref<*xi32> -> <tensor = memref<1x64xi32,
// MAPS-DAG: nvgpu.tma.create.descriptor %{{.*}} : memref<*xui32> -> <tensor = memref<1x64xui32,
// MAPS-DAG: nvgpu.tma.create.descriptor %{{.*}} : memref<*xi64> -> <tensor = memref<1x64xi64,
// MAPS-DAG: nvgpu.tma.create.descriptor %{{.*}} : memref<*xui64> -> <tensor = memref<1x64xui64,

#g4 = #mgpu.block_spec<shape = [4, 64], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>
!row = memref<1x64xi32, #gpu.address_space<workgroup>>
!wrow = memref<1x64xi64, #gpu.address_space<workgroup>>

module {
  func.func @minmax(%ti: memref<4x64xi32>, %tw: memref<4x64xi64>,
                    %at: memref<4x64xi32>) {
    mgpu.pallas_call grid [4] outs(%ti, %tw, %at
             : memref<4x64xi32>, memref<4x64xi64>, memref<4x64xi32>)
        in_specs [] out_specs [#g4, #g4, #g4] scratch [!row, !wrow]
        params #params {
    ^bb0(%tig: memref<4x64xi32>, %twg: memref<4x64xi64>,
         %atg: memref<4x64xi32>, %r: !row, %w: !wrow):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %p = mgpu.program_id 0
      %pi = arith.index_cast %p : index to i32
      %lanes = vector.step : vector<64xindex>
      %j = arith.index_cast %lanes : vector<64xindex> to vector<64xi32>
      %one = arith.constant dense<1> : vector<64xi32>
      %two = arith.constant dense<2> : vector<64xi32>
      %thousand = arith.constant dense<1000> : vector<64xi32>
      %pv = vector.broadcast %pi : i32 to vector<64xi32>
      %ps = arith.subi %pv, %two : vector<64xi32>
      %j1 = arith.addi %j, %one : vector<64xi32>
      %scale = arith.muli %ps, %thousand : vector<64xi32>
      %v = arith.muli %scale, %j1 : vector<64xi32>
      %vw = arith.extsi %v : vector<64xi32> to vector<64xi64>

      vector.store %v, %r[%c0, %c0] : !row, vector<64xi32>
      vector.store %vw, %w[%c0, %c0] : !wrow, vector<64xi64>
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %r, %tig[0, 0] reduction smin {commit_group = false} : !row, memref<4x64xi32>
      mgpu.copy_smem_to_gmem %r, %tig[1, 0] reduction smax {commit_group = false} : !row, memref<4x64xi32>
      mgpu.copy_smem_to_gmem %r, %tig[2, 0] reduction umin {commit_group = false} : !row, memref<4x64xi32>
      mgpu.copy_smem_to_gmem %r, %tig[3, 0] reduction umax {commit_group = false} : !row, memref<4x64xi32>
      mgpu.copy_smem_to_gmem %w, %twg[0, 0] reduction smin {commit_group = false} : !wrow, memref<4x64xi64>
      mgpu.copy_smem_to_gmem %w, %twg[1, 0] reduction smax {commit_group = false} : !wrow, memref<4x64xi64>
      mgpu.copy_smem_to_gmem %w, %twg[2, 0] reduction umin {commit_group = false} : !wrow, memref<4x64xi64>
      mgpu.copy_smem_to_gmem %w, %twg[3, 0] reduction umax : !wrow, memref<4x64xi64>

      // The same values as atomics, the vector form into rows 0-2 and the
      // scalar form (lane 63's value, once per program) into row 3.
      mgpu.atomic_store min %v, %atg[%c0, %c0] : vector<64xi32>, memref<4x64xi32>
      mgpu.atomic_store max %v, %atg[%c1, %c0] : vector<64xi32>, memref<4x64xi32>
      mgpu.atomic_store umin %v, %atg[%c2, %c0] : vector<64xi32>, memref<4x64xi32>
      %c63 = arith.constant 63 : index
      %last = vector.extract %v[63] : i32 from vector<64xi32>
      mgpu.atomic_store umax %last, %atg[%c3, %c63] : i32, memref<4x64xi32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  // The mismatches in row `row` of an i32 output against `want(j)`.
  func.func @count32(%o: memref<4x64xi32>, %row: index, %kind: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i32
    %bad = scf.for %j = %c0 to %c64 step %c1 iter_args(%n = %zero) -> i32 {
      %want = func.call @want(%j, %kind) : (index, i32) -> i64
      %w32 = arith.trunci %want : i64 to i32
      %got = memref.load %o[%row, %j] : memref<4x64xi32>
      %ne = arith.cmpi ne, %got, %w32 : i32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    return %bad : i32
  }

  func.func @count64(%o: memref<4x64xi64>, %row: index, %kind: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i32
    %bad = scf.for %j = %c0 to %c64 step %c1 iter_args(%n = %zero) -> i32 {
      %want = func.call @want(%j, %kind) : (index, i32) -> i64
      %got = memref.load %o[%row, %j] : memref<4x64xi64>
      %ne = arith.cmpi ne, %got, %want : i64
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    return %bad : i32
  }

  // kind 0 smin: -2000 (j + 1); 1 smax: 1000 (j + 1); 2 umin: 0;
  // 3 umax: -1000 (j + 1); 4 (the scalar umax, only at j = 63): -64000 at
  // j = 63, 5 elsewhere.
  func.func @want(%j: index, %kind: i32) -> i64 {
    %ji = arith.index_cast %j : index to i64
    %one = arith.constant 1 : i64
    %j1 = arith.addi %ji, %one : i64
    %m2000 = arith.constant -2000 : i64
    %p1000 = arith.constant 1000 : i64
    %m1000 = arith.constant -1000 : i64
    %zero = arith.constant 0 : i64
    %five = arith.constant 5 : i64
    %smin = arith.muli %j1, %m2000 : i64
    %smax = arith.muli %j1, %p1000 : i64
    %umax = arith.muli %j1, %m1000 : i64
    %c63 = arith.constant 63 : index
    %at63 = arith.cmpi eq, %j, %c63 : index
    %scalar = arith.select %at63, %umax, %five : i64
    %k = arith.index_cast %kind : i32 to index
    %r = scf.index_switch %k -> i64
    case 0 { scf.yield %smin : i64 }
    case 1 { scf.yield %smax : i64 }
    case 2 { scf.yield %zero : i64 }
    case 3 { scf.yield %umax : i64 }
    default { scf.yield %scalar : i64 }
    return %r : i64
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %k2 = arith.constant 2 : i32
    %k3 = arith.constant 3 : i32
    %k4 = arith.constant 4 : i32
    %five = arith.constant 5 : i32
    %fivew = arith.constant 5 : i64
    %ti = memref.alloc() : memref<4x64xi32>
    %tw = memref.alloc() : memref<4x64xi64>
    %at = memref.alloc() : memref<4x64xi32>
    linalg.fill ins(%five : i32) outs(%ti : memref<4x64xi32>)
    linalg.fill ins(%fivew : i64) outs(%tw : memref<4x64xi64>)
    linalg.fill ins(%five : i32) outs(%at : memref<4x64xi32>)
    func.call @minmax(%ti, %tw, %at) : (memref<4x64xi32>, memref<4x64xi64>, memref<4x64xi32>) -> ()

    %b0 = func.call @count32(%ti, %c0, %k0) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "tma i32 smin: %d wrong\n", %b0 : i32
    %b1 = func.call @count32(%ti, %c1, %k1) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "tma i32 smax: %d wrong\n", %b1 : i32
    %b2 = func.call @count32(%ti, %c2, %k2) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "tma i32 umin: %d wrong\n", %b2 : i32
    %b3 = func.call @count32(%ti, %c3, %k3) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "tma i32 umax: %d wrong\n", %b3 : i32
    %w0 = func.call @count64(%tw, %c0, %k0) : (memref<4x64xi64>, index, i32) -> i32
    gpu.printf "tma i64 smin: %d wrong\n", %w0 : i32
    %w1 = func.call @count64(%tw, %c1, %k1) : (memref<4x64xi64>, index, i32) -> i32
    gpu.printf "tma i64 smax: %d wrong\n", %w1 : i32
    %w2 = func.call @count64(%tw, %c2, %k2) : (memref<4x64xi64>, index, i32) -> i32
    gpu.printf "tma i64 umin: %d wrong\n", %w2 : i32
    %w3 = func.call @count64(%tw, %c3, %k3) : (memref<4x64xi64>, index, i32) -> i32
    gpu.printf "tma i64 umax: %d wrong\n", %w3 : i32
    %a0 = func.call @count32(%at, %c0, %k0) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "atomic i32 min: %d wrong\n", %a0 : i32
    %a1 = func.call @count32(%at, %c1, %k1) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "atomic i32 max: %d wrong\n", %a1 : i32
    %a2 = func.call @count32(%at, %c2, %k2) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "atomic i32 umin: %d wrong\n", %a2 : i32
    %a3 = func.call @count32(%at, %c3, %k4) : (memref<4x64xi32>, index, i32) -> i32
    gpu.printf "atomic i32 umax: %d wrong\n", %a3 : i32
    return
  }
}
