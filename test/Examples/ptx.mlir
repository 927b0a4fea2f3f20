// Every example kernel (the files of examples/, utils/examples.py) goes
// through the whole GPU pipeline. The PTX is extracted and assembled by
// ptxas for sm_90a (no warning, no spill), and serialized to a cubin by the
// pipeline itself (format=bin). The elementwise kernels are checked to stage
// their blocks with TMA (a cp.async.bulk.tensor load counted on an mbarrier,
// a wait on its phase, a TMA store after a proxy fence) and to spread their
// work over the lanes (%tid.x in the addressing) with 128-bit shared-memory
// accesses.
//
// REQUIRES: ptxas
// The lane path of examples/matmul_warp_specialized.mlir (no tensor cores:
// two 64x128 f32 accumulators per consumer, computed lane by lane at the
// 168-register entry budget) spills; its tensor-core build (below) does not.
// RUN: rm -rf %t && %python %mgpu_src_root/utils/examples.py compile --mgpu-opt mgpu-opt --ptx %t --ptxas %ptxas --cubin --allow-spills matmul_warp_specialized | FileCheck %s --check-prefix=ALL
// ALL: examples.py: {{[1-9][0-9]*}} examples, 0 failures
// examples/blackwell_matmul.mlir (`// Chip: sm_100a`) is assembled for
// sm_100a: its MMAs are tcgen05, issued by one thread, into TMEM; the
// epilogue reads TMEM 32 columns at a time, straight into shared memory.
// RUN: FileCheck %s --check-prefix=BW < %t/blackwell_matmul.ptx
// BW: tcgen05.alloc.cta_group::1
// BW: tcgen05.mma.cta_group::1.kind::f16
// BW: tcgen05.commit.cta_group::1
// BW: tcgen05.ld.sync.aligned.32x32b.x32.b32
// BW: tcgen05.dealloc.cta_group::1
// examples/blackwell_matmul_2cta.mlir: the pair's TMEM allocated by both
// CTAs, partitioned TMA copies completing on the first CTA's barrier
// (mapa to rank 0, cta_group::2), which expects both CTAs' 32 KiB per
// operand; the pair's MMA (M = 256, N = 256: instruction descriptor
// 272696464) and commits multicast to both CTAs; the TMEM freed after a
// cluster barrier.
// RUN: FileCheck %s --check-prefix=PAIR < %t/blackwell_matmul_2cta.ptx
// PAIR: tcgen05.alloc.cta_group::2
// PAIR: tcgen05.relinquish_alloc_permit.cta_group::2
// PAIR: barrier.cluster.arrive
// PAIR: mapa.shared::cluster.u64 [[LEADER:%rd[0-9]+]], %rd{{[0-9]+}}, 0;
// PAIR: mov.b32 [[BYTES:%r[0-9]+]], 32768;
// PAIR-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}], [[BYTES]];
// PAIR: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], {{\[}}[[LEADER]]{{\]}};
// PAIR: barrier.cluster.arrive
// PAIR: tcgen05.dealloc.cta_group::2
// The MMA thread's code (LLVM may lay it out before or after the copies').
// RUN: FileCheck %s --check-prefix=PAIR-MMA < %t/blackwell_matmul_2cta.ptx
// PAIR-MMA: mov.b32 [[IDESC:%r[0-9]+]], 272696464;
// PAIR-MMA-NEXT: tcgen05.mma.cta_group::2.kind::f16.collector::a::discard [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], %p{{[0-9]+}};
// PAIR-MMA: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64

// RUN: FileCheck %s --check-prefix=DIRECT --implicit-check-not=.shared --implicit-check-not=bar.sync < %t/vector_add.ptx

// RUN: FileCheck %s --check-prefix=LANES < %t/scale_in_place.ptx

// RUN: FileCheck %s --check-prefix=LANES < %t/elementwise_2d.ptx



// RUN: FileCheck %s --check-prefix=ASYNC < %t/matmul.ptx

// RUN: FileCheck %s --check-prefix=LANES < %t/threads.ptx

// RUN: FileCheck %s --check-prefix=LANES < %t/cluster.ptx

// RUN: FileCheck %s --check-prefix=LANES < %t/dynamic_grid.ptx


// RUN: FileCheck %s --check-prefix=ASYNC < %t/hand_pipelined.ptx

// RUN: FileCheck %s --check-prefix=WS < %t/warp_specialized.ptx

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads


// DIRECT: .reqntid
// DIRECT: mov.u32 %r{{[0-9]+}}, %tid.x;
// DIRECT: ld.global.v4.b32
// DIRECT: ld.global.v4.b32
// DIRECT: add.f32
// DIRECT: st.global.v4.b32

// LANES: .reqntid
// LANES: mov.u32 %r{{[0-9]+}}, %tid.x;
// LANES: mbarrier.init.shared.b64
// LANES: mbarrier.arrive.expect_tx.shared.b64
// LANES: cp.async.bulk.tensor.{{[12]}}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// LANES: mbarrier.try_wait.parity.shared.b64
// LANES: ld.shared.v4.b32
// LANES: bar.sync {{(1|%r[0-9]+)}}, {{(128|%r[0-9]+)}};
// LANES: fence.proxy.async.shared::cta;
// LANES: cp.async.bulk.tensor.{{[12]}}d.global.shared::cta.tile.bulk_group
// LANES: cp.async.bulk.commit_group;
// LANES: cp.async.bulk.wait_group 0;

// matmul's inputs are double-buffered (max_concurrent_steps = 2): 2-D TMA
// copies into two slots, each counted on its slot's mbarrier, the next
// step's blocks in flight while the body runs. After the barriers are
// initialized (bar.sync 0) no CTA-wide barrier remains: the warpgroup
// synchronizes with its named barrier only.
// ASYNC: mbarrier.init.shared.b64
// ASYNC: bar.sync 0;
// ASYNC: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ASYNC: mbarrier.try_wait.parity.shared.b64
// ASYNC-NOT: bar.sync 0;

// The warp-specialized kernel: a 1-D TMA load per chunk counted on the
// slot's `full` mbarrier; the consumer releases a slot with
// mbarrier.arrive on `empty`; both wait with try_wait.parity; 256 threads
// (LLVM lays out the producer's and the consumer's code in either order).
// WS: .reqntid 256, 1, 1
// WS: mbarrier.init.shared.b64
// WS-DAG: cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// WS-DAG: mbarrier.try_wait.parity.shared.b64
// WS-DAG: mbarrier.arrive.shared.b64
// WS-NOT: bar.sync 0;

// Three buffers (a test kernel with revisited blocks, max_concurrent_steps
// raised to 3): two steps in flight, still no spill.
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 3/' %mgpu_src_root/test/Integration/Kernels/pipelined_revisits.mlir | mgpu-opt --mgpu-to-binary="format=isa" | %extract_ptx -o %t.three.ptx
// RUN: %ptxas -arch=sm_90a -v %t.three.ptx -o %t.three.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=THREE < %t.three.ptx
// THREE-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// THREE: mbarrier.try_wait.parity.shared.b64

// The bf16 matmul example (mgpu.wgmma with ordinary instructions, the two
// accumulators carried across the pipeline) assembles for sm_90a without
// spills (255 registers when measured).

// The attention example (two wgmma per step, online softmax) assembles for
// sm_90a without spills.

// With tensor-cores=1 the bf16 matmul example runs its MMAs on the tensor cores
// and reads its operands in place: TMA stages a and b as 64x64 tiles with
// the 128-byte swizzle (a's two tiles, one above the other, as one box of
// 128 rows; b's side by side as two boxes), and each step issues four
// m64n128k16 wgmma.mma_async per 64-row half, with no shared-memory traffic
// of the lanes in between, both halves committed before one wait. The
// descriptors: a (K-major) 2^62 (128-byte swizzle) | 64 << 32 (8-row
// groups 1024 bytes apart) | 1 << 16; b (N-major) 2^62 | 64 << 32 (8 K
// rows) | 512 << 16 (the next 64 columns one 8 KiB tile further). Still no
// spill (154 registers when measured).
// RUN: mgpu-opt --mgpu-to-binary="format=isa tensor-cores=1" %mgpu_src_root/examples/matmul_bf16.mlir | %extract_ptx -o %t.matmul_bf16_tc.ptx
// RUN: %ptxas -arch=sm_90a -v %t.matmul_bf16_tc.ptx -o %t.matmul_bf16_tc.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=TC < %t.matmul_bf16_tc.ptx
// RUN: mgpu-opt --mgpu-to-binary="format=isa tensor-cores=1" %mgpu_src_root/examples/matmul_bf16.mlir | FileCheck %s --check-prefix=TCMAP
// The tensor maps of a and b have CU_TENSOR_MAP_SWIZZLE_128B (3), c's none.
// TCMAP: %[[SW128:.*]] = llvm.mlir.constant(3 : i32) : i64
// TCMAP-COUNT-2: llvm.call @mgpuTensorMapEncodeTiledMemref(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SW128]], %{{.*}}, %{{.*}}, %{{.*}})
// TCMAP-NOT: %[[SW128]], %{{.*}}, %{{.*}}, %{{.*}}) : (i64
// TC: wgmma.fence.sync.aligned
// TC-NOT: {{(ld|st)}}.shared
// TC: or.b64 {{.*}}, 4611686293305360384;
// TC-NOT: {{(ld|st)}}.shared
// TC: or.b64 {{.*}}, 4611686293338849280;
// TC-NOT: {{(ld|st)}}.shared
// TC-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// TC-NOT: {{(ld|st)}}.shared
// TC: wgmma.commit_group.sync.aligned
// TC-NOT: wgmma.wait_group
// TC-NOT: {{(ld|st)}}.shared
// TC: wgmma.fence.sync.aligned
// TC-NOT: {{(ld|st)}}.shared
// TC-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// TC-NOT: {{(ld|st)}}.shared
// TC: wgmma.commit_group.sync.aligned
// TC-NEXT: wgmma.wait_group.sync.aligned 0
// TC: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TC-NOT: wgmma.mma_async

// The attention example with tensor-cores=1: both contractions on the tensor
// cores. q k^T (a in shared memory, b a transposed view of k, copied
// K-major: trans-b 0) as four m64n64k16 MMAs, then p v (p from the
// registers it was computed in: PTX's register-A form, four 32-bit
// registers per MMA; v N-major: trans-b 1) as four more.
// RUN: mgpu-opt --mgpu-to-binary="format=isa tensor-cores=1" %mgpu_src_root/examples/attention.mlir | %extract_ptx -o %t.attention_tc.ptx
// RUN: %ptxas -arch=sm_90a -v %t.attention_tc.ptx -o %t.attention_tc.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=TCATT < %t.attention_tc.ptx
// TCATT-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1,  1, 0,  0;
// TCATT-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// TCATT-NOT: wgmma.mma_async

// The warp-specialized matmul, with and without tensor cores. With them:
// 384 threads; the producer warpgroup gives registers back and issues the
// TMA loads of a stage (two 64x64 tiles of a, four of b, swizzled) on one
// mbarrier; each consumer takes registers, waits for the stage, runs its
// two groups of four m64n128k16 MMAs on the stage in place with no lane
// access to shared memory, waits until only the last group is in flight
// and releases the previous stage; after the loop it waits for the last
// ones, meets the other consumer on a barrier, and its accumulators leave
// the registers once, in 8-byte stores, for two TMA stores.
// Without tensor cores the lanes hold both 64x128 accumulators of a
// consumer, more than the 168 registers a 384-thread CTA has per thread:
// ptxas spills, but with the budget at entry (.maxnreg) it still honours
// setmaxnreg.
// RUN: %ptxas -arch=sm_90a -v %t/matmul_warp_specialized.ptx -o %t/matmul_warp_specialized.lanes.cubin 2>&1 | FileCheck %s --check-prefix=LANEWS --implicit-check-not=warning --implicit-check-not=C7508
// RUN: FileCheck %s --check-prefix=BUDGET < %t/matmul_warp_specialized.ptx
// RUN: mgpu-opt --mgpu-to-binary="format=isa tensor-cores=1" %mgpu_src_root/examples/matmul_warp_specialized.mlir | %extract_ptx -o %t.matmul_ws_tc.ptx
// RUN: %ptxas -arch=sm_90a -v %t.matmul_ws_tc.ptx -o %t.matmul_ws_tc.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=WSMMA < %t.matmul_ws_tc.ptx

// LANEWS: Used 168 registers
// BUDGET: .reqntid 384, 1, 1
// BUDGET-NEXT: .maxnreg 168
// WSMMA: .reqntid 384, 1, 1
// WSMMA-NEXT: .maxnreg 168
// WSMMA: setmaxnreg.dec.sync.aligned.u32 40;
// a's 128x64 stage (two 64-row tiles, one above the other) is one box.
// WSMMA: mbarrier.arrive.expect_tx.shared.b64
// WSMMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// WSMMA-NOT: cp.async.bulk.tensor
// WSMMA: mbarrier.arrive.expect_tx.shared.b64
// WSMMA-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// WSMMA: setmaxnreg.inc.sync.aligned.u32 232;
// WSMMA: mbarrier.try_wait.parity.shared.b64
// WSMMA-NOT: .shared
// WSMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// WSMMA-NOT: .shared
// WSMMA: wgmma.commit_group.sync.aligned;
// WSMMA-NOT: .shared
// WSMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// WSMMA-NOT: .shared
// WSMMA: wgmma.commit_group.sync.aligned;
// WSMMA-NEXT: wgmma.wait_group.sync.aligned 1;
// WSMMA-NOT: st.shared
// WSMMA: mbarrier.arrive.shared.b64
// WSMMA-NOT: wgmma.mma_async
// WSMMA: wgmma.wait_group.sync.aligned 0;
// WSMMA: mbarrier.arrive.shared.b64
// WSMMA: mbarrier.try_wait.parity.shared.b64
// WSMMA-NOT: wgmma.mma_async
// WSMMA-COUNT-64: st.shared.v2.b32
// WSMMA-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group

// The same matmul warp-specialized by the compiler
// (examples/matmul_ws_pipeline.mlir): thread 2 lowers its budget and
// fills three rings (two a blocks, one b block) with TMA, after one wait
// per step on the slot's release; the compute threads raise theirs, load
// their accumulator once before the loop, and at each step wait for the three
// fetches (one barrier: the three blocks change at every step, so they
// are one fetch group), issue four m64n128k16 MMAs with no shared-memory
// access between them, wait for them and release the slot with one
// arrival; the accumulator is stored once after the loop. No spill on
// either path.
// RUN: mgpu-opt --mgpu-to-binary="format=isa tensor-cores=1" %mgpu_src_root/examples/matmul_ws_pipeline.mlir | %extract_ptx -o %t.matmul_wsp_tc.ptx
// RUN: %ptxas -arch=sm_90a -v %t.matmul_wsp_tc.ptx -o %t.matmul_wsp_tc.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning --implicit-check-not=C7508
// RUN: FileCheck %s --check-prefix=WSP < %t.matmul_wsp_tc.ptx

// WSP: .reqntid 384, 1, 1
// WSP-NEXT: .maxnreg 168
// WSP: setmaxnreg.dec.sync.aligned.u32 40;
// WSP-NOT: wgmma
// WSP: mbarrier.try_wait.parity.shared.b64
// WSP-NOT: mbarrier.try_wait
// WSP: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [[[FULL:%rd[0-9]+\+[0-9]+]]]
// WSP: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [[[FULL]]];
// WSP-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [[[FULL]]]
// WSP-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [[[FULL]]];
// WSP-NOT: mbarrier.try_wait
// WSP: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [[[FULL]]]
// WSP-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [[[FULL]]];
// WSP: setmaxnreg.inc.sync.aligned.u32 232;
// WSP-COUNT-32: ld.shared.v2.b32
// WSP-NOT: .shared
// WSP: mbarrier.try_wait.parity.shared.b64
// WSP-NOT: .shared
// WSP: wgmma.fence.sync.aligned;
// WSP-NOT: .shared
// WSP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// WSP-NOT: .shared
// WSP: wgmma.commit_group.sync.aligned;
// WSP-NEXT: wgmma.wait_group.sync.aligned 0;
// WSP-NOT: .shared
// WSP: mbarrier.arrive.shared.b64
// WSP-NOT: mbarrier.arrive.shared.b64
// WSP-NOT: wgmma.mma_async
// WSP-COUNT-32: st.shared.v2.b32
