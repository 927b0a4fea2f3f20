//===- DeviceBuffers.h - Device copies of a kernel's operands ---*- C++ -*-===//
//
// The host side of a GPU launch: a device copy of each host memref a kernel
// uses (gpu.alloc and gpu.memcpy, chained through async tokens, so the same
// host program runs on the CPU and on the GPU), zeroed device scratch, and
// after the launch the outputs copied back and the buffers freed. A strided
// host memref (a view into a larger buffer) is copied with the whole span
// its elements cover, so that the device view has the host's layout. Memory
// the host program keeps on the device (#gpu.address_space<global>) is used
// as it is: no copy, and no host wait when nothing else was copied.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_GPU_DEVICEBUFFERS_H
#define MGPU_GPU_DEVICEBUFFERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::mgpu {

class DeviceBuffers {
public:
  /// Starts a chain of async device operations at `b`'s insertion point.
  DeviceBuffers(OpBuilder &b, Location loc);

  /// The device copy of `host` (one per host value); `host` itself when it
  /// is device memory. Without `withData` the device buffer starts
  /// uninitialized (an output the kernel only writes), unless `host` is a
  /// strided view, whose gaps the copy back must preserve.
  Value copyIn(Value host, bool withData = true);
  /// A device buffer of `type`, zeroed.
  Value zeroedScratch(MemRefType type);
  /// The token the launch waits for.
  Value getToken() const { return token; }
  /// After the launch (whose token is `launched`): `outputs` copied back,
  /// every buffer freed, the host waits.
  void finish(Value launched, ValueRange outputs);

private:
  Value alloc(MemRefType type, ValueRange dynamicSizes);
  void copy(Value to, Value from);

  OpBuilder &b;
  Location loc;
  Value token;
  llvm::MapVector<Value, Value> copies; // host -> what kernels see
  // Strided host memrefs: host -> (host span, device span).
  llvm::MapVector<Value, std::pair<Value, Value>> spans;
  SmallVector<Value> scratch;
};

} // namespace mlir::mgpu

#endif // MGPU_GPU_DEVICEBUFFERS_H
