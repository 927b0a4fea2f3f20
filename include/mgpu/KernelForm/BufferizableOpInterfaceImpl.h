//===- BufferizableOpInterfaceImpl.h - Bufferizing kernel ops ---*- C++ -*-===//
//
// Registers the BufferizableOpInterface models of mgpu.pallas_call and
// mgpu.mpmd_map, so that one-shot bufferization (the --mgpu-bufferize pass,
// or upstream one-shot-bufferize over whole functions) turns their tensor
// form into the memref form.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_BUFFERIZABLEOPINTERFACEIMPL_H
#define MGPU_KERNELFORM_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace mgpu {
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace mgpu
} // namespace mlir

#endif // MGPU_KERNELFORM_BUFFERIZABLEOPINTERFACEIMPL_H
