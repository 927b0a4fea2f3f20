//===- ClusterOps.cpp - Ops across the CTAs of a cluster ------------------===//
//
// Verifiers of the cluster ops (SPEC section 8, docs/SPEC-additions.md):
// cluster_sync runs where every body op may, inside a kernel; without a
// cluster it is a barrier over one CTA.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

using namespace mlir;
using namespace mlir::mgpu;

LogicalResult ClusterSyncOp::verify() { return verifyInsideKernel(*this); }
