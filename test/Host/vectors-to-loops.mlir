// RUN: mgpu-opt --mgpu-vectors-to-loops --canonicalize %s | FileCheck %s
// RUN: mgpu-opt --mgpu-vectors-to-loops %s | mgpu-opt --verify-diagnostics -o /dev/null

// An elementwise chain runs where its value is written: one loop nest over
// 16-element chunks. Two function arguments may alias, so the reads are
// copied first (a write to %o could change %a).
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:.*]]: memref<4x256xf32>, %[[B:.*]]: memref<4x256xf32>, %[[O:.*]]: memref<4x256xf32>
// CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<16xf32>
// CHECK: %[[XB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x256xf32>
// CHECK: vector.transfer_read %[[A]]{{.*}} : memref<4x256xf32>, vector<16xf32>
// CHECK: %[[YB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x256xf32>
// CHECK: vector.transfer_read %[[B]]{{.*}} : memref<4x256xf32>, vector<16xf32>
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c256 step %c16 {
// CHECK-NEXT: %[[X:.*]] = vector.load %[[XB]][%[[I]], %[[J]]] : memref<4x256xf32>, vector<16xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[TWO]] : vector<16xf32>
// CHECK-NEXT: %[[Y:.*]] = vector.load %[[YB]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[Y]] : vector<16xf32>
// CHECK-NEXT: vector.transfer_write %[[S]], %[[O]][%[[I]], %[[J]]] {in_bounds = [true]}
// CHECK: memref.dealloc %[[XB]]
// CHECK: memref.dealloc %[[YB]]
// CHECK-NOT: vector<4x256xf32>
func.func @chain(%a: memref<4x256xf32>, %b: memref<4x256xf32>, %o: memref<4x256xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %two = arith.constant dense<2.0> : vector<4x256xf32>
  %x = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x256xf32>, vector<4x256xf32>
  %y = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x256xf32>, vector<4x256xf32>
  %m = arith.mulf %x, %two : vector<4x256xf32>
  %s = arith.addf %m, %y : vector<4x256xf32>
  vector.transfer_write %s, %o[%c0, %c0] {in_bounds = [true, true]} : vector<4x256xf32>, memref<4x256xf32>
  return
}

// Row maxima: a chunk accumulator per row, reduced once. The broadcast of
// the 4x1 maxima costs nothing: each chunk loads its row's scalar. Column
// sums keep the innermost dimension: chunks add into the partial sums. A
// user this pass does not know (return) gets the whole vector back.
// CHECK-LABEL: func.func @rows(
// CHECK: %[[X:.*]] = memref.alloc() {{.*}} : memref<4x256xf32>
// CHECK: %[[MAX:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK: scf.for %[[R:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[FIRST:.*]] = vector.load %[[X]][%[[R]], %c0]
// CHECK-NEXT: %[[ACC:.*]] = scf.for %[[J:.*]] = %c16 to %c256 step %c16 iter_args(%[[CARRY:.*]] = %[[FIRST]]) -> (vector<16xf32>) {
// CHECK: arith.maximumf %{{.*}}, %[[CARRY]] : vector<16xf32>
// CHECK: %[[ROWMAX:.*]] = vector.reduction <maximumf>, %[[ACC]] : vector<16xf32> into f32
// CHECK: memref.store %{{.*}}, %[[MAX]][%[[R]]]
// CHECK: %[[M41:.*]] = memref.alloc() {{.*}} : memref<4x1xf32>
// CHECK: %[[D:.*]] = memref.alloc() {{.*}} : memref<4x256xf32>
// CHECK: %[[SCALAR:.*]] = memref.load %[[M41]][%{{.*}}, %c0] : memref<4x1xf32>
// CHECK-NEXT: %[[SPLAT:.*]] = vector.broadcast %[[SCALAR]] : f32 to vector<16xf32>
// CHECK-NEXT: arith.subf %{{.*}}, %[[SPLAT]] : vector<16xf32>
// CHECK: %[[COLS:.*]] = memref.alloc() {{.*}} : memref<256xf32>
// CHECK: %[[CHUNK:.*]] = vector.load %[[D]][%{{.*}}, %[[C:.*]]] : memref<4x256xf32>, vector<16xf32>
// CHECK-NEXT: %[[SOFAR:.*]] = vector.load %[[COLS]][%[[C]]] : memref<256xf32>, vector<16xf32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[CHUNK]], %[[SOFAR]] : vector<16xf32>
// CHECK-NEXT: vector.store %[[SUM]], %[[COLS]][%[[C]]]
// CHECK: %[[WHOLE:.*]] = vector.transfer_read %[[COLS]][%c0], %{{.*}} {in_bounds = [true]} : memref<256xf32>, vector<256xf32>
// CHECK: return %[[WHOLE]] : vector<256xf32>
func.func @rows(%a: memref<4x256xf32>, %o: memref<4x256xf32>) -> vector<256xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %ninf = arith.constant dense<0xFF800000> : vector<4xf32>
  %zero = arith.constant dense<0.0> : vector<256xf32>
  %x = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x256xf32>, vector<4x256xf32>
  %m = vector.multi_reduction <maximumf>, %x, %ninf [1] : vector<4x256xf32> to vector<4xf32>
  %m2 = vector.shape_cast %m : vector<4xf32> to vector<4x1xf32>
  %mb = vector.broadcast %m2 : vector<4x1xf32> to vector<4x256xf32>
  %d = arith.subf %x, %mb : vector<4x256xf32>
  %cols = vector.multi_reduction <add>, %d, %zero [0] : vector<4x256xf32> to vector<256xf32>
  vector.transfer_write %d, %o[%c0, %c0] {in_bounds = [true, true]} : vector<4x256xf32>, memref<4x256xf32>
  return %cols : vector<256xf32>
}

// A load read only by a reduction is read chunk by chunk inside it; without
// an accumulator the row's reduction is the result.
// CHECK-LABEL: func.func @total(
// CHECK-SAME: %[[A:.*]]: memref<1024xf32>
// CHECK: %[[FIRST:.*]] = vector.load %[[A]][%c0] : memref<1024xf32>, vector<16xf32>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[CARRY:.*]] = %[[FIRST]])
// CHECK: vector.load %[[A]]
// CHECK: %[[SUM:.*]] = vector.reduction <add>, %[[ACC]] : vector<16xf32> into f32
// CHECK-NEXT: memref.store %[[SUM]]
// CHECK-NOT: vector<1024xf32>
func.func @total(%a: memref<1024xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<1024xf32>, vector<1024xf32>
  %s = vector.reduction <add>, %x : vector<1024xf32> into f32
  return %s : f32
}

// Up to max-elements (64) a vector stays as it is.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: memref.alloc
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<64xf32>
func.func @small(%a: memref<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<64xf32>, vector<64xf32>
  %y = arith.addf %x, %x : vector<64xf32>
  return %y : vector<64xf32>
}

// A read is not moved past a write to memory: it is copied where it was.
// CHECK-LABEL: func.func @written_between(
// CHECK: %[[COPY:.*]] = memref.alloc()
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %[[COPY]]
// CHECK: memref.store
// CHECK: scf.for
// CHECK: vector.load %[[COPY]]
func.func @written_between(%a: memref<256xf32>, %o: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %x = vector.transfer_read %a[%c0], %pad {in_bounds = [true]} : memref<256xf32>, vector<256xf32>
  memref.store %pad, %a[%c0] : memref<256xf32>
  vector.transfer_write %x, %o[%c0] {in_bounds = [true]} : vector<256xf32>, memref<256xf32>
  return
}

// The same read and write place: each chunk is read before it is written,
// so the read runs inside the write's loop.
// CHECK-LABEL: func.func @in_place(
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[J:.*]] =
// CHECK-NEXT: %[[V:.*]] = vector.transfer_read %[[A:.*]][%[[J]]]
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[V]]
// CHECK-NEXT: vector.transfer_write %[[N]], %[[A]][%[[J]]]
func.func @in_place(%a: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %x = vector.transfer_read %a[%c0], %pad {in_bounds = [true]} : memref<256xf32>, vector<256xf32>
  %n = arith.negf %x : vector<256xf32>
  vector.transfer_write %n, %a[%c0] {in_bounds = [true]} : vector<256xf32>, memref<256xf32>
  return
}

// A vector.load (a read, but not a vector transfer op) whose one user is a
// transfer_write is weighed like a transfer_read (it crashed the pass):
// here the two arguments may alias, so the load goes through a buffer.
// CHECK-LABEL: func.func @load_into_write(
// CHECK: %[[BUF:.*]] = memref.alloc
// CHECK: vector.load %{{.*}} : memref<256xf32>, vector<16xf32>
// CHECK: %[[V:.*]] = vector.load %[[BUF]]
// CHECK-NEXT: vector.transfer_write %[[V]]
func.func @load_into_write(%a: memref<256xf32>, %o: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<256xf32>, vector<256xf32>
  vector.transfer_write %x, %o[%c0] {in_bounds = [true]} : vector<256xf32>, memref<256xf32>
  return
}

// A contraction (q @ k^T: k is read as (n, k)) becomes loops over its
// parallel dimensions around a scalar loop over the reduced one, reading
// the operands where they lie, f16 widened to the f32 accumulator: no
// unrolled products.
// CHECK-LABEL: func.func @contract_transposed_b
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128x128xf32>
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[INIT:.*]] = memref.load %[[OUT]][%[[M]], %[[N]]]
// CHECK: %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK: vector.transfer_read %{{.*}}[%[[M]], %[[K]]], %{{.*}} : memref<128x64xf16>, vector<1xf16>
// CHECK: arith.extf
// CHECK: vector.transfer_read %{{.*}}[%[[N]], %[[K]]], %{{.*}} : memref<128x64xf16>, vector<1xf16>
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %[[SUM]], %[[OUT]][%[[M]], %[[N]]]
// CHECK-NOT: vector.contract
// CHECK: return
func.func @contract_transposed_b(%q: memref<128x64xf16>, %k: memref<128x64xf16>,
                                 %s: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %qv = vector.transfer_read %q[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<128x64xf16>, vector<128x64xf16>
  %kv = vector.transfer_read %k[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<128x64xf16>, vector<128x64xf16>
  %z = arith.constant dense<0.0> : vector<128x128xf32>
  %sv = vector.contract {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
      %qv, %kv, %z : vector<128x64xf16>, vector<128x64xf16> into vector<128x128xf32>
  vector.transfer_write %sv, %s[%c0, %c0] {in_bounds = [true, true]}
      : vector<128x128xf32>, memref<128x128xf32>
  return
}
