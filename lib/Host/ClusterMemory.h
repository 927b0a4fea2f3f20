//===- ClusterMemory.h - Peer shared memory on the host ---------*- C++ -*-===//
//
// What interpret mode and the emulator share to run distributed shared
// memory (mgpu.cluster_ref, mgpu.async_store_smem): both keep the shared
// memory of a cluster's CTAs in one host buffer, a CTA's buffers as
// memref.views of it, so the same buffer of a peer CTA is the same chain of
// views a whole number of CTA slices away. Internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_CLUSTERMEMORY_H
#define MGPU_LIB_HOST_CLUSTERMEMORY_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// `local` (a memref.view of the host buffer of shared memory, or views of
/// one: subviews, casts) seen `bytes` further in that buffer: the same
/// chain of views on a memref.view shifted by `bytes`. A null value when
/// `local` is not such a chain.
Value viewInPeer(OpBuilder &b, Location loc, Value local, Value bytes);

/// async_store_smem on the host, once per Pallas thread: copies `src` into
/// `peerDst` when the op runs, then arrives once on barrier `index` of the
/// barrier words `barriers` (this CTA's, a memref.view) seen `bytes`
/// further, the peer's: plainly, or through the host runtime's
/// `arrivalRuntime` (word, arrivals, location) where one is named. Fails
/// with a diagnostic when `barriers` is not a view.
LogicalResult storeToPeerOnHost(OpBuilder &b, AsyncStoreSmemOp op, Value src,
                                Value peerDst, Value barriers, Value index,
                                Value bytes, StringRef arrivalRuntime = "");

} // namespace mlir::mgpu

#endif // MGPU_LIB_HOST_CLUSTERMEMORY_H
