// RUN: mgpu-opt %s --mgpu-select-tensor-cores --mgpu-assign-layouts | FileCheck %s
// RUN: mgpu-opt %s --mgpu-assign-layouts | FileCheck %s --check-prefix=PORTABLE

// --mgpu-assign-layouts records the lane layout of every vector value of a
// kernel body: tensor-core wgmma results and what they flow into through
// elementwise ops, loops and ifs are `wgmma`; splats are `splat`; the rest
// is `strided`. Without tensor cores nothing is `wgmma` unless cast by hand.

#s = #gpu.address_space<workgroup>

// CHECK-LABEL: func.func @carried
// PORTABLE-LABEL: func.func @carried
func.func @carried() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<64x32xbf16, #s>, memref<32x64xbf16, #s>, memref<64x64xf32, #s>] {
  ^bb0(%a: memref<64x32xbf16, #s>, %b: memref<32x64xbf16, #s>, %c: memref<64x64xf32, #s>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    // CHECK: arith.constant {mgpu.out_layouts = [#mgpu.layout<splat>]} dense<5.000000e-01>
    %half = arith.constant dense<0.5> : vector<64x64xf32>
    // CHECK: vector.transfer_read {{.*}}mgpu.out_layouts = [#mgpu.layout<strided>]
    %init = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x64xf32, #s>, vector<64x64xf32>
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<64x64xf32>) {
      // The scaled accumulator feeds the next MMA: it is carried in
      // fragments too, found only once the loop is known to carry them.
      // CHECK: arith.mulf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
      // PORTABLE: arith.mulf {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]}
      %scaled = arith.mulf %acc, %half : vector<64x64xf32>
      // CHECK: mgpu.wgmma {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>], mgpu.tensor_cores}
      // PORTABLE: mgpu.wgmma {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]}
      %r = mgpu.wgmma %scaled, %a, %b : vector<64x64xf32>, memref<64x32xbf16, #s>, memref<32x64xbf16, #s>
      scf.yield %r : vector<64x64xf32>
    // CHECK: } {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    // PORTABLE: } {mgpu.out_layouts = [#mgpu.layout<strided>]}
    }
    %p = mgpu.program_id 0
    %first = arith.cmpi eq, %p, %c0 : index
    // Both branches yield fragments.
    %out = scf.if %first -> vector<64x64xf32> {
      // CHECK: arith.negf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
      %n = arith.negf %sum : vector<64x64xf32>
      scf.yield %n : vector<64x64xf32>
    } else {
      scf.yield %sum : vector<64x64xf32>
    // CHECK: } {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    }
    // Where fragments meet a strided value, the fragments win when at
    // least as many operands are in them: the strided one is converted.
    // CHECK: arith.addf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    %mixed = arith.addf %out, %init : vector<64x64xf32>
    // CHECK: vector.fma {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]}
    %fma = vector.fma %init, %init, %out : vector<64x64xf32>
    // Comparisons of fragments give i1 masks in fragments (jnp.where's).
    // CHECK: arith.cmpf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    // PORTABLE: arith.cmpf {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]}
    %pos = arith.cmpf ogt, %out, %half : vector<64x64xf32>
    vector.transfer_write %mixed, %c[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #s>
  }
  return
}

// A loop that carries a vector no MMA produces stays strided: the
// assignment starts from `strided` and only grows.
// CHECK-LABEL: func.func @plain_loop
func.func @plain_loop() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [memref<64x64xf32, #s>] {
  ^bb0(%m: memref<64x64xf32, #s>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %one = arith.constant dense<1.0> : vector<64x64xf32>
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (vector<64x64xf32>) {
      // CHECK: arith.addf {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]}
      %n = arith.addf %acc, %one : vector<64x64xf32>
      scf.yield %n : vector<64x64xf32>
    // CHECK: } {mgpu.out_layouts = [#mgpu.layout<strided>]}
    }
    vector.transfer_write %sum, %m[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #s>
  }
  return
}

// Casts by hand and layouts already assigned are kept; elementwise ops of
// splats are splats.
// CHECK-LABEL: func.func @by_hand
// PORTABLE-LABEL: func.func @by_hand
func.func @by_hand() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<64x64xf32, #s>, memref<1xf32, #s>] {
  ^bb0(%m: memref<64x64xf32, #s>, %xs: memref<1xf32, #s>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %x = memref.load %xs[%c0] : memref<1xf32, #s>
    // CHECK: vector.broadcast {{.*}} {mgpu.out_layouts = [#mgpu.layout<splat>]}
    %b = vector.broadcast %x : f32 to vector<64x64xf32>
    // CHECK: arith.mulf {{.*}} {mgpu.out_layouts = [#mgpu.layout<splat>]}
    %sq = arith.mulf %b, %b : vector<64x64xf32>
    %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x64xf32, #s>, vector<64x64xf32>
    // CHECK: mgpu.layout_cast {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    // PORTABLE: mgpu.layout_cast {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    %f = mgpu.layout_cast %v : vector<64x64xf32> to #mgpu.layout<wgmma>
    // CHECK: arith.addf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    // PORTABLE: arith.addf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    %g = arith.addf %f, %sq : vector<64x64xf32>
    // CHECK: arith.subf {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]}
    %h = arith.subf %g, %b {mgpu.out_layouts = [#mgpu.layout<strided>]} : vector<64x64xf32>
    // CHECK: arith.negf {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]}
    %i = arith.negf %h : vector<64x64xf32>
    vector.transfer_write %i, %m[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #s>
  }
  return
}

// The online softmax of flash attention: a row reduction of fragments is
// `wgmma_row`; so are elementwise ops of rows and the rows a loop carries;
// rows broadcast back over the columns (M x 1, or M broadcast and
// transposed) are fragments again.
// CHECK-LABEL: func.func @softmax
func.func @softmax() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<64x16xbf16, #s>, memref<16x64xbf16, #s>, memref<64x64xf32, #s>, memref<64xf32, #s>] {
  ^bb0(%a: memref<64x16xbf16, #s>, %b: memref<16x64xbf16, #s>, %c: memref<64x64xf32, #s>, %ms: memref<64xf32, #s>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
    // CHECK: scf.for
    %m = scf.for %k = %c0 to %c4 step %c1 iter_args(%m_old = %ninf) -> (vector<64xf32>) {
      %s = mgpu.wgmma %zero, %a, %b : vector<64x64xf32>, memref<64x16xbf16, #s>, memref<16x64xbf16, #s>
      // CHECK: vector.multi_reduction <maximumf>, {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]} [1]
      %max = vector.multi_reduction <maximumf>, %s, %m_old [1] : vector<64x64xf32> to vector<64xf32>
      // CHECK: vector.shape_cast {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]}
      %col = vector.shape_cast %max : vector<64xf32> to vector<64x1xf32>
      // CHECK: vector.broadcast {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]} : vector<64x1xf32> to vector<64x64xf32>
      %rows = vector.broadcast %col : vector<64x1xf32> to vector<64x64xf32>
      // CHECK: arith.subf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
      %d = arith.subf %s, %rows : vector<64x64xf32>
      // CHECK: vector.broadcast {{.*}} {mgpu.out_layouts = [#mgpu.layout<strided>]} : vector<64xf32> to vector<64x64xf32>
      %cols = vector.broadcast %max : vector<64xf32> to vector<64x64xf32>
      // CHECK: vector.transpose {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
      %rows2 = vector.transpose %cols, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      // CHECK: arith.addf {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
      %e = arith.addf %d, %rows2 : vector<64x64xf32>
      // CHECK: vector.multi_reduction <add>, {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]} [1]
      %sum = vector.multi_reduction <add>, %e, %max [1] : vector<64x64xf32> to vector<64xf32>
      // CHECK: math.exp {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]}
      %x = math.exp %sum : vector<64xf32>
      scf.yield %x : vector<64xf32>
    // CHECK: } {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]}
    }
    vector.transfer_write %m, %ms[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #s>
  }
  return
}

// Host code is not a kernel body: nothing is recorded there.
// CHECK-LABEL: func.func @host
// CHECK-NOT: mgpu.out_layouts
// CHECK: return
func.func @host(%v: vector<4xf32>) -> vector<4xf32> {
  %w = arith.addf %v, %v : vector<4xf32>
  return %w : vector<4xf32>
}

// JAX's mixed-type matmul (hopper_mixed_type_matmul_mgpu.py): int8 a read
// from shared memory, widened to bf16 (astype) and given to a tensor-core
// wgmma as its register a. The read looks through the conversion to the
// layout the wgmma takes, so the lanes read a in fragments and widen it
// there, with no exchange in between. Without tensor cores the wgmma takes
// nothing in fragments and the read stays strided.
// CHECK-LABEL: func.func @astype_register_a
// PORTABLE-LABEL: func.func @astype_register_a
func.func @astype_register_a() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<64x64xi8, #s>, memref<64x128xbf16, #s>, memref<64x128xf32, #s>] {
  ^bb0(%a: memref<64x64xi8, #s>, %b: memref<64x128xbf16, #s>, %c: memref<64x128xf32, #s>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0 : i8
    %zero = arith.constant dense<0.0> : vector<64x128xf32>
    // CHECK: vector.transfer_read {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma>]
    // PORTABLE: vector.transfer_read {{.*}}mgpu.out_layouts = [#mgpu.layout<strided>]
    %a8 = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x64xi8, #s>, vector<64x64xi8>
    // CHECK: arith.sitofp {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma>]
    // PORTABLE: arith.sitofp {{.*}}mgpu.out_layouts = [#mgpu.layout<strided>]
    %a16 = arith.sitofp %a8 : vector<64x64xi8> to vector<64x64xbf16>
    // CHECK: mgpu.wgmma {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma>]
    %acc = mgpu.wgmma %zero, %a16, %b : vector<64x128xf32>, vector<64x64xbf16>,
        memref<64x128xbf16, #s>
    mgpu.wgmma_wait 0
    vector.transfer_write %acc, %c[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x128xf32>, memref<64x128xf32, #s>
  }
  return
}

// JAX's attention backward (attention_mgpu.py): a per-column vector (lse,
// loaded with Layout.WGMMA.reduce(0)) broadcast over the rows of sT and
// subtracted from it. The read is made one element per column
// (`wgmma_col`) and the broadcast is a fragment, without a cast by hand.
// CHECK-LABEL: func.func @column_broadcast
func.func @column_broadcast() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<64x64xbf16, #s>, memref<64x64xbf16, #s>, memref<64xf32, #s>, memref<64x64xf32, #s>] {
  ^bb0(%k: memref<64x64xbf16, #s>, %q: memref<64x64xbf16, #s>, %l: memref<64xf32, #s>, %o: memref<64x64xf32, #s>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %st = mgpu.wgmma %zero, %k, %q : vector<64x64xf32>, memref<64x64xbf16, #s>,
        memref<64x64xbf16, #s>
    mgpu.wgmma_wait 0
    // CHECK: vector.transfer_read {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma_col>]
    %lse = vector.transfer_read %l[%c0], %pad {in_bounds = [true]}
        : memref<64xf32, #s>, vector<64xf32>
    // CHECK: vector.broadcast {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma>]
    %b = vector.broadcast %lse : vector<64xf32> to vector<64x64xf32>
    // CHECK: arith.subf {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma>]
    %d = arith.subf %st, %b : vector<64x64xf32>
    vector.transfer_write %d, %o[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #s>
  }
  return
}

// JAX's broadcasted_iota(int32, (64, 64), d, layout=WGMMA) for a causal
// mask: one vector.step serves the rows (d = 0, through M x 1 or a
// transpose) and the columns (d = 1). Each use gets its own step, made in
// the layout that use takes (wgmma_row, wgmma_col), so that the iotas, the
// mask and the select stay in fragments, with no exchange.
// CHECK-LABEL: func.func @iota_mask
// PORTABLE-LABEL: func.func @iota_mask
func.func @iota_mask() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [memref<64x64xf32, #s>] {
  ^bb0(%c: memref<64x64xf32, #s>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %x = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x64xf32, #s>, vector<64x64xf32>
    %qk = mgpu.layout_cast %x : vector<64x64xf32> to #mgpu.layout<wgmma>
    // CHECK-DAG: vector.step {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]}
    // CHECK-DAG: vector.step {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]}
    // CHECK-DAG: vector.step {mgpu.out_layouts = [#mgpu.layout<wgmma_col>]}
    // PORTABLE-COUNT-3: vector.step {mgpu.out_layouts = [#mgpu.layout<wgmma_{{row|col}}>]}
    %s = vector.step : vector<64xindex>
    // CHECK: arith.index_cast {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]}
    %s32 = arith.index_cast %s : vector<64xindex> to vector<64xi32>
    %rows1 = vector.shape_cast %s32 : vector<64xi32> to vector<64x1xi32>
    %rb = vector.broadcast %rows1 : vector<64x1xi32> to vector<64x64xi32>
    %rows = mgpu.layout_cast %rb : vector<64x64xi32> to #mgpu.layout<wgmma>
    %tb = vector.broadcast %s32 : vector<64xi32> to vector<64x64xi32>
    %rows_t = vector.transpose %tb, [1, 0] : vector<64x64xi32> to vector<64x64xi32>
    %cb = vector.broadcast %s32 : vector<64xi32> to vector<64x64xi32>
    %cols = mgpu.layout_cast %cb : vector<64x64xi32> to #mgpu.layout<wgmma>
    // CHECK: arith.cmpi sge, {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    %mask = arith.cmpi sge, %rows, %cols : vector<64x64xi32>
    // CHECK: arith.cmpi sgt, {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    %strict = arith.cmpi sgt, %rows_t, %cols : vector<64x64xi32>
    %ninf = arith.constant dense<0xFF800000> : vector<64x64xf32>
    // CHECK: arith.select {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    %y = arith.select %mask, %qk, %ninf : vector<64x64xi1>, vector<64x64xf32>
    // CHECK: arith.select {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
    %z = arith.select %strict, %y, %ninf : vector<64x64xi1>, vector<64x64xf32>
    vector.transfer_write %z, %c[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #s>
  }
  return
}

// Rows a loop carries unchanged (attention backward's lse and delta) keep
// the layout they enter with, so their broadcast over a fragment at each
// step is a fragment (they used to become strided, and every step went
// through the warpgroup scratch).
// CHECK-LABEL: func.func @carried_unchanged
// CHECK: scf.for
// CHECK: vector.shape_cast {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]}
// CHECK: vector.broadcast {{.*}} {mgpu.out_layouts = [#mgpu.layout<wgmma>]}
// CHECK: } {mgpu.out_layouts = [#mgpu.layout<wgmma>, #mgpu.layout<wgmma_row>]}
func.func @carried_unchanged() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<64x64xf32, #s>, memref<64xf32, #s>] {
  ^bb0(%m: memref<64x64xf32, #s>, %r: memref<64xf32, #s>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x64xf32, #s>, vector<64x64xf32>
    %acc0 = mgpu.layout_cast %v : vector<64x64xf32> to #mgpu.layout<wgmma>
    %rv = vector.transfer_read %r[%c0], %pad {in_bounds = [true]}
        : memref<64xf32, #s>, vector<64xf32>
    %rows0 = mgpu.layout_cast %rv : vector<64xf32> to #mgpu.layout<wgmma_row>
    %acc, %rows = scf.for %k = %c0 to %c4 step %c1
        iter_args(%a = %acc0, %l = %rows0) -> (vector<64x64xf32>, vector<64xf32>) {
      %col = vector.shape_cast %l : vector<64xf32> to vector<64x1xf32>
      %b = vector.broadcast %col : vector<64x1xf32> to vector<64x64xf32>
      %next = arith.addf %a, %b : vector<64x64xf32>
      scf.yield %next, %l : vector<64x64xf32>, vector<64xf32>
    }
    vector.transfer_write %acc, %m[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #s>
  }
  return
}
