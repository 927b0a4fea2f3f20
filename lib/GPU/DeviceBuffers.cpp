//===- DeviceBuffers.cpp - Device copies of a kernel's operands -----------===//
//
// See DeviceBuffers.h.
//
//===----------------------------------------------------------------------===//

#include "mgpu/GPU/DeviceBuffers.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mgpu;

DeviceBuffers::DeviceBuffers(OpBuilder &b, Location loc) : b(b), loc(loc) {
  token = gpu::WaitOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                              ValueRange())
              .getAsyncToken();
}

Value DeviceBuffers::alloc(MemRefType type, ValueRange dynamicSizes) {
  auto alloc = gpu::AllocOp::create(
      b, loc, type, gpu::AsyncTokenType::get(b.getContext()), ValueRange{token},
      dynamicSizes, ValueRange(), false);
  token = alloc.getAsyncToken();
  return alloc.getMemref();
}

void DeviceBuffers::copy(Value to, Value from) {
  token =
      gpu::MemcpyOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                            ValueRange{token}, to, from)
          .getAsyncToken();
}

/// Memory the host program keeps on the device (see --mgpu-device-memory).
static bool isDeviceResident(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Global;
}

Value DeviceBuffers::copyIn(Value host, bool withData) {
  if (Value device = copies.lookup(host))
    return device;
  auto type = cast<MemRefType>(host.getType());
  if (isDeviceResident(type))
    return host;
  if (type.getLayout().isIdentity()) {
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(memref::DimOp::create(b, loc, host, d));
    Value device = alloc(type, dynamicSizes);
    if (withData)
      copy(device, host);
    copies[host] = device;
    return device;
  }
  // The span from the buffer's start to the view's last element.
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, host);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value last = metadata.getOffset();
  for (auto [size, stride] :
       llvm::zip(metadata.getSizes(), metadata.getStrides()))
    last = arith::AddIOp::create(
        b, loc, last,
        arith::MulIOp::create(
            b, loc,
            arith::SubIOp::create(
                b, loc, arith::MaxUIOp::create(b, loc, size, one), one),
            stride));
  Value span = arith::AddIOp::create(b, loc, last, one);
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value hostSpan = memref::ReinterpretCastOp::create(
      b, loc, flatType, metadata.getBaseBuffer(),
      OpFoldResult(b.getIndexAttr(0)), ArrayRef<OpFoldResult>{span},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  Value deviceSpan = alloc(flatType, ValueRange{span});
  copy(deviceSpan, hostSpan);
  // The view's layout: static where the type says, else as the host's.
  auto [staticStrides, staticOffset] = type.getStridesAndOffset();
  auto fold = [&](int64_t known, Value value) -> OpFoldResult {
    return ShapedType::isDynamic(known) ? OpFoldResult(value)
                                        : OpFoldResult(b.getIndexAttr(known));
  };
  SmallVector<OpFoldResult> sizes, strides;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    sizes.push_back(fold(type.getDimSize(d), metadata.getSizes()[d]));
    strides.push_back(fold(staticStrides[d], metadata.getStrides()[d]));
  }
  Value device = memref::ReinterpretCastOp::create(
      b, loc, type, deviceSpan, fold(staticOffset, metadata.getOffset()), sizes,
      strides);
  spans[host] = {hostSpan, deviceSpan};
  copies[host] = device;
  return device;
}

Value DeviceBuffers::zeroedScratch(MemRefType type) {
  Value device = alloc(type, ValueRange());
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(type.getElementType())));
  token =
      gpu::MemsetOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                            ValueRange{token}, device, zero)
          .getAsyncToken();
  scratch.push_back(device);
  return device;
}

void DeviceBuffers::finish(Value launched, ValueRange outputs) {
  token = launched;
  auto tokenType = gpu::AsyncTokenType::get(b.getContext());
  llvm::SmallDenseSet<Value> done;
  for (Value host : outputs) {
    if (!done.insert(host).second || !copies.count(host))
      continue;
    if (auto span = spans.find(host); span != spans.end())
      copy(span->second.first, span->second.second);
    else
      copy(host, copies.lookup(host));
  }
  auto dealloc = [&](Value device) {
    token = gpu::DeallocOp::create(b, loc, tokenType, ValueRange{token}, device)
                .getAsyncToken();
  };
  for (auto [host, device] : copies)
    dealloc(spans.count(host) ? spans.lookup(host).second : device);
  for (Value device : scratch)
    dealloc(device);
  // The host waits only when host memory took part: a launch on device
  // memory alone stays queued behind the earlier ones (the runtime keeps one
  // stream), and a later copy to the host waits for all of them.
  if (!copies.empty())
    gpu::WaitOp::create(b, loc, Type(), ValueRange{token});
}
