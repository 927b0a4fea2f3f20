//===- BufferViews.h - Which buffer a memref value views ---------*- C++
//-*-===//
//
// Kernel bodies reach their buffers through chains of views (`.at[slot]`
// subviews, transposes, reshapes, a peer's `cluster_ref`, byte views of a
// RefUnion) and through the `arith.select` a compute thread uses to pick
// its block. Passes that ask "is this the same buffer?" follow those
// chains here, once: for a buffer's layout a byte view is a buffer of its
// own (a RefUnion's views may hold different layouts); for its memory it is
// the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_BUFFERVIEWS_H
#define MGPU_DIALECT_MGPU_BUFFERVIEWS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mgpu {

/// What a view chain is followed through.
enum class ViewChain {
  /// Views that keep the buffer's layout: subview, transpose, cast,
  /// expand_shape, collapse_shape, reinterpret_cast, cluster_ref.
  sameLayout,
  /// Any view of the same bytes: those, `memref.view`, every other
  /// ViewLikeOpInterface op and a TMEM slice.
  sameMemory,
};

/// The value `op`'s result is a view of, or null if `op` makes no view.
Value getViewSource(Operation *op, ViewChain chain);

/// The buffer at the end of `view`'s chain of views.
Value getViewedBuffer(Value view, ViewChain chain);

/// The buffers `view` may be a view of: through views and both choices of
/// an arith.select, each once.
void collectViewedBuffers(Value view, SmallVectorImpl<Value> &buffers,
                          ViewChain chain);

} // namespace mlir::mgpu

#endif // MGPU_DIALECT_MGPU_BUFFERVIEWS_H
