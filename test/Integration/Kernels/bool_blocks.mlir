// Blocks of i1 next to blocks of i8. A memref of i1 holds one byte per
// element: the staged path must give an i1 block a byte per element in
// shared memory (counted as packed bits, the next block overlapped it and
// the emulator read other blocks' bytes), and the host backends must load
// and store i1 vectors element by element (LLVM packs `<N x i1>` into bits,
// so interpret mode read the flags of one element from eight).
// Two kernels: `sequential` stages every block through shared memory;
// `parallel` is lane-local and reads the blocks in place in global memory.
// out[i] = 2 a[i] + flag[i] + 16 c[i]; gt[i] = a[i] > c[i] (an i1 output).
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" -o /dev/null

#blk = #mgpu.block_spec<shape = [1024], index_map = affine_map<(i) -> (i)>>
#seq = #mgpu.compiler_params<dimension_semantics = [sequential]>
#par = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @sequential(%a: memref<4096xi8>, %f: memref<4096xi1>,
                        %c: memref<4096xi8>, %o: memref<4096xi8>,
                        %gt: memref<4096xi1>) {
    mgpu.pallas_call grid [4]
        ins(%a, %f, %c : memref<4096xi8>, memref<4096xi1>, memref<4096xi8>)
        outs(%o, %gt : memref<4096xi8>, memref<4096xi1>)
        in_specs [#blk, #blk, #blk] out_specs [#blk, #blk] params #seq {
    ^bb0(%as: memref<1024xi8, #gpu.address_space<workgroup>>,
         %fs: memref<1024xi1, #gpu.address_space<workgroup>>,
         %cs: memref<1024xi8, #gpu.address_space<workgroup>>,
         %os: memref<1024xi8, #gpu.address_space<workgroup>>,
         %gs: memref<1024xi1, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %va = vector.load %as[%c0] : memref<1024xi8, #gpu.address_space<workgroup>>, vector<1024xi8>
      %vf = vector.load %fs[%c0] : memref<1024xi1, #gpu.address_space<workgroup>>, vector<1024xi1>
      %vc = vector.load %cs[%c0] : memref<1024xi8, #gpu.address_space<workgroup>>, vector<1024xi8>
      %two = arith.constant dense<2> : vector<1024xi8>
      %sixteen = arith.constant dense<16> : vector<1024xi8>
      %a2 = arith.muli %va, %two : vector<1024xi8>
      %fe = arith.extui %vf : vector<1024xi1> to vector<1024xi8>
      %c16 = arith.muli %vc, %sixteen : vector<1024xi8>
      %s = arith.addi %a2, %fe : vector<1024xi8>
      %r = arith.addi %s, %c16 : vector<1024xi8>
      %g = arith.cmpi sgt, %va, %vc : vector<1024xi8>
      vector.store %r, %os[%c0] : memref<1024xi8, #gpu.address_space<workgroup>>, vector<1024xi8>
      vector.store %g, %gs[%c0] : memref<1024xi1, #gpu.address_space<workgroup>>, vector<1024xi1>
    }
    return
  }

  func.func @parallel(%a: memref<4096xi8>, %f: memref<4096xi1>,
                      %c: memref<4096xi8>, %o: memref<4096xi8>,
                      %gt: memref<4096xi1>) {
    mgpu.pallas_call grid [4]
        ins(%a, %f, %c : memref<4096xi8>, memref<4096xi1>, memref<4096xi8>)
        outs(%o, %gt : memref<4096xi8>, memref<4096xi1>)
        in_specs [#blk, #blk, #blk] out_specs [#blk, #blk] params #par {
    ^bb0(%as: memref<1024xi8, #gpu.address_space<workgroup>>,
         %fs: memref<1024xi1, #gpu.address_space<workgroup>>,
         %cs: memref<1024xi8, #gpu.address_space<workgroup>>,
         %os: memref<1024xi8, #gpu.address_space<workgroup>>,
         %gs: memref<1024xi1, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      %zero = arith.constant 0 : i8
      %va = vector.transfer_read %as[%c0], %zero {in_bounds = [true]} : memref<1024xi8, #gpu.address_space<workgroup>>, vector<1024xi8>
      %vf = vector.transfer_read %fs[%c0], %false {in_bounds = [true]} : memref<1024xi1, #gpu.address_space<workgroup>>, vector<1024xi1>
      %vc = vector.transfer_read %cs[%c0], %zero {in_bounds = [true]} : memref<1024xi8, #gpu.address_space<workgroup>>, vector<1024xi8>
      %two = arith.constant dense<2> : vector<1024xi8>
      %sixteen = arith.constant dense<16> : vector<1024xi8>
      %a2 = arith.muli %va, %two : vector<1024xi8>
      %fe = arith.extui %vf : vector<1024xi1> to vector<1024xi8>
      %c16 = arith.muli %vc, %sixteen : vector<1024xi8>
      %s = arith.addi %a2, %fe : vector<1024xi8>
      %r = arith.addi %s, %c16 : vector<1024xi8>
      %g = arith.cmpi sgt, %va, %vc : vector<1024xi8>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]} : vector<1024xi8>, memref<1024xi8, #gpu.address_space<workgroup>>
      vector.transfer_write %g, %gs[%c0] {in_bounds = [true]} : vector<1024xi1>, memref<1024xi1, #gpu.address_space<workgroup>>
    }
    return
  }

  // a[i] = i mod 256 (as i8), flag[i] = i mod 3 == 1, c[i] = (i / 4) mod 16.
  func.func @fill(%a: memref<4096xi8>, %f: memref<4096xi1>, %c: memref<4096xi8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant 4096 : index
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %a8 = arith.trunci %ii : i32 to i8
      %m3 = arith.remui %i, %c3 : index
      %flag = arith.cmpi eq, %m3, %c1 : index
      %q = arith.divui %i, %c4 : index
      %cm = arith.remui %q, %c16 : index
      %ci = arith.index_cast %cm : index to i32
      %c8 = arith.trunci %ci : i32 to i8
      memref.store %a8, %a[%i] : memref<4096xi8>
      memref.store %flag, %f[%i] : memref<4096xi1>
      memref.store %c8, %c[%i] : memref<4096xi8>
    }
    return
  }

  // Mismatches of both outputs against a scalar reference.
  func.func @check(%a: memref<4096xi8>, %f: memref<4096xi1>, %c: memref<4096xi8>,
                   %o: memref<4096xi8>, %gt: memref<4096xi1>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 4096 : index
    %two = arith.constant 2 : i8
    %sixteen = arith.constant 16 : i8
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
      %va = memref.load %a[%i] : memref<4096xi8>
      %vf = memref.load %f[%i] : memref<4096xi1>
      %vc = memref.load %c[%i] : memref<4096xi8>
      %a2 = arith.muli %va, %two : i8
      %fe = arith.extui %vf : i1 to i8
      %c16 = arith.muli %vc, %sixteen : i8
      %s = arith.addi %a2, %fe : i8
      %want = arith.addi %s, %c16 : i8
      %wantg = arith.cmpi sgt, %va, %vc : i8
      %got = memref.load %o[%i] : memref<4096xi8>
      %gotg = memref.load %gt[%i] : memref<4096xi1>
      %ne1 = arith.cmpi ne, %got, %want : i8
      %ne2 = arith.cmpi ne, %gotg, %wantg : i1
      %ne = arith.ori %ne1, %ne2 : i1
      %inc = arith.select %ne, %c1, %c0 : index
      %next = arith.addi %count, %inc : index
      scf.yield %next : index
    }
    return %bad : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<4096xi8>
    %f = memref.alloc() : memref<4096xi1>
    %c = memref.alloc() : memref<4096xi8>
    %o = memref.alloc() : memref<4096xi8>
    %gt = memref.alloc() : memref<4096xi1>
    func.call @fill(%a, %f, %c) : (memref<4096xi8>, memref<4096xi1>, memref<4096xi8>) -> ()

    func.call @sequential(%a, %f, %c, %o, %gt)
        : (memref<4096xi8>, memref<4096xi1>, memref<4096xi8>, memref<4096xi8>, memref<4096xi1>) -> ()
    %bad_seq = func.call @check(%a, %f, %c, %o, %gt)
        : (memref<4096xi8>, memref<4096xi1>, memref<4096xi8>, memref<4096xi8>, memref<4096xi1>) -> index
    vector.print str "sequential mismatches: "
    vector.print %bad_seq : index
    %o8 = vector.load %o[%c0] : memref<4096xi8>, vector<8xi8>
    vector.print %o8 : vector<8xi8>

    func.call @parallel(%a, %f, %c, %o, %gt)
        : (memref<4096xi8>, memref<4096xi1>, memref<4096xi8>, memref<4096xi8>, memref<4096xi1>) -> ()
    %bad_par = func.call @check(%a, %f, %c, %o, %gt)
        : (memref<4096xi8>, memref<4096xi1>, memref<4096xi8>, memref<4096xi8>, memref<4096xi1>) -> index
    vector.print str "parallel mismatches: "
    vector.print %bad_par : index
    // Flags of elements 64..71 read as a vector on the host too.
    %c64 = arith.constant 64 : index
    %g8 = vector.load %gt[%c64] : memref<4096xi1>, vector<8xi1>
    vector.print %g8 : vector<8xi1>
    return
  }
}
// CHECK: sequential mismatches: 0
// CHECK-NEXT: ( 0, 3, 4, 6, 25, 26, 28, 31 )
// CHECK-NEXT: parallel mismatches: 0
// CHECK-NEXT: ( 1, 1, 1, 1, 1, 1, 1, 1 )
