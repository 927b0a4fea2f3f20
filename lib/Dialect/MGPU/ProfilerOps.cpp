//===- ProfilerOps.cpp - The in-kernel profiler's ops ---------------------===//
//
// Verifiers of trace_scope (a named region of a kernel body) and
// profile_event (what a profiled kernel records for it); see
// MGPUProfilerOps.td. The compiler params' own rule (JAX's "Either both
// profile_space and profile_dir must be set, or neither.") is checked with
// the attribute.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

using namespace mlir;
using namespace mlir::mgpu;

LogicalResult TraceScopeOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  if (getName().empty())
    return emitOpError() << "needs a non-empty name (the trace shows it)";
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError()
           << "yields " << yield.getValues().size()
           << " value(s) whose types differ from the trace_scope's results";
  return success();
}

LogicalResult ProfileEventOp::verify() {
  // The tag's bit 31 marks an end event (JAX's ProfilerSpec.EXIT).
  if (getScope() < 0 || getScope() >= (int64_t(1) << 31))
    return emitOpError() << "scope must be in [0, 2^31), got " << getScope();
  if (getCapacity() < 0)
    return emitOpError() << "capacity must be non-negative, got "
                         << getCapacity();
  return success();
}
