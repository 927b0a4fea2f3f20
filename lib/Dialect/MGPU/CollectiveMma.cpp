//===- CollectiveMma.cpp - The rules of Blackwell's 2-CTA MMAs ------------===//
//
// Blackwell's collective MMA (tcgen05.mma.cta_group::2) runs on a pair of
// CTAs: the first issues it, reading a and b from both CTAs' shared memory
// and accumulating into both CTAs' tensor memory. Three ops take part: the
// partitioned copy (copy_gmem_to_smem ... partitioned D) that loads each
// CTA's part of the pair's window and counts it on the first CTA's barrier,
// the MMA and its commit. Their rules, checked here against the kernel's
// mesh where it is known, are JAX's, in JAX's words where JAX has them
// (jax/_src/pallas/mosaic_gpu/primitives.py: copy_gmem_to_smem with
// leader_tracked, tcgen05_mma, _collective_mma_predicate;
// jax/experimental/mosaic/gpu/tcgen05.py: mma, commit_arrive).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

using namespace mlir;
using namespace mlir::mgpu;

/// The cluster of `mesh` as JAX's three-dimensional cluster size.
static SmallVector<int64_t> getClusterSize(MeshAttr mesh) {
  SmallVector<int64_t> size(3, 1);
  if (mesh)
    for (auto [d, extent] : llvm::enumerate(mesh.getCluster()))
      if (d < 3)
        size[d] = extent;
  return size;
}

static bool isPair(ArrayRef<int64_t> cluster) {
  return cluster[0] == 2 && cluster[1] == 1 && cluster[2] == 1;
}

/// `axis` is the mesh's first (JAX's minormost) cluster axis, as the
/// hardware pairs CTAs along x.
static LogicalResult verifyPairAxis(Operation *op, StringRef axis,
                                    MeshAttr mesh, StringRef cluster) {
  ArrayRef<StringAttr> names;
  if (mesh)
    names = mesh.getClusterNames();
  if (!llvm::is_contained(names, StringAttr::get(op->getContext(), axis))) {
    InFlightDiagnostic diag =
        emitNotAClusterAxis(op, "collective axis", axis, names);
    diag.attachNote() << "a collective MMA runs on a pair of CTAs: give the "
                         "mesh a cluster (cluster = [2], cluster_names = [\""
                      << axis << "\"])";
    return diag;
  }
  if (names.front().getValue() != axis)
    return op->emitOpError()
           << "Can only perform collective MMA along minormost cluster axis. "
              "Got "
           << axis << ", expected " << names.front().getValue() << ".";
  SmallVector<int64_t> size = getClusterSize(mesh);
  if (!isPair(size))
    return op->emitOpError()
           << cluster << " Got cluster size " << formatTuple(size) << ".";
  return success();
}

LogicalResult mlir::mgpu::verifyPartitionedCopy(CopyGmemToSmemOp op) {
  std::optional<int64_t> dim = op.getPartitioned();
  if (!dim)
    return success();
  std::optional<ArrayAttr> axes = op.getCollectiveAxes();
  if (!axes)
    return op.emitOpError()
           << "`collective_axes` must be specified when `leader_tracked` is "
              "set (partitioned "
           << *dim << ")";
  if (axes->size() != 1) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "Expected exactly one collective axis, got "
                                 "collective_axes=(";
    llvm::interleave(
        axes->getAsValueRange<StringAttr>(),
        [&](StringRef axis) { diag << "'" << axis << "'"; },
        [&] { diag << ", "; });
    return diag << ")";
  }
  auto dst = cast<MemRefType>(op.getDst().getType());
  if (*dim < 0 || *dim >= dst.getRank())
    return op.emitOpError() << "partitions dimension " << *dim << " of a rank-"
                            << dst.getRank() << " window";
  // Without offsets the source is the pair's window.
  if (op.getStaticOffsets().empty()) {
    auto src = cast<MemRefType>(op.getSrc().getType());
    SmallVector<int64_t> expected(dst.getShape());
    expected[*dim] *= 2;
    if (src.getShape() != ArrayRef<int64_t>(expected))
      return op.emitOpError()
             << "Expected source shape to be " << formatTuple(expected)
             << ", but got " << formatTuple(src.getShape()) << ". Dim " << *dim
             << " is partitioned over an axis of size 2.";
  }
  std::optional<MeshAttr> mesh = getKernelRegionMesh(op);
  if (!mesh)
    return success();
  StringRef axis = cast<StringAttr>((*axes)[0]).getValue();
  ArrayRef<StringAttr> names;
  if (*mesh)
    names = mesh->getClusterNames();
  if (!llvm::is_contained(names, StringAttr::get(op.getContext(), axis)))
    return verifyPairAxis(op, axis, *mesh, "");
  SmallVector<int64_t> size = getClusterSize(*mesh);
  if (!isPair(size))
    return op.emitOpError()
           << "Partitioned loads only supported for clusters of size 2. Got "
              "cluster size "
           << formatTuple(size) << ".";
  return success();
}

LogicalResult mlir::mgpu::verifyCollectiveMma(Tcgen05MmaOp op) {
  std::optional<StringRef> axis = op.getCollectiveAxis();
  TmemType acc = op.getAcc().getType();
  if (!axis) {
    if (acc.getCollective())
      return op.emitOpError()
             << "expects collective_axis: its accumulator is collective "
                "tensor memory, allocated by a pair of CTAs, and PTX gives "
                "all tcgen05 instructions of a kernel the same CTA group";
    return success();
  }
  if (!acc.getCollective())
    return op.emitOpError()
           << "Accumulator Ref must be collective if collective_axis is set.";
  auto b = cast<MemRefType>(op.getB().getType());
  int64_t n = b.getDimSize(1);
  if (acc.getColumns() != 2 * n)
    return op.emitOpError()
           << "Accumulator and RHS have incompatible shapes. Expected RHS to "
              "have shape (k, n) and accumulator to have shape (m, n * 2) in "
              "collective mode. Accumulator: "
           << formatTuple(acc.getShape())
           << ". RHS: " << formatTuple(b.getShape()) << ".";
  if (n % 16)
    return op.emitOpError()
           << "In 2 CTA MMA, N must be a multiple of 16, got N=" << n;
  if (n > 128)
    return op.emitOpError() << "Only N <= 128 are supported for collective MMA";
  std::optional<MeshAttr> mesh = getKernelRegionMesh(op);
  if (!mesh)
    return success();
  return verifyPairAxis(op, *axis, *mesh,
                        "runs on a pair of CTAs: a collective MMA needs a "
                        "(2, 1, 1)-shaped cluster.");
}

LogicalResult mlir::mgpu::verifyCollectiveCommit(Tcgen05CommitArriveOp op) {
  std::optional<StringRef> axis = op.getCollectiveAxis();
  if (!axis)
    return success();
  std::optional<MeshAttr> mesh = getKernelRegionMesh(op);
  if (!mesh)
    return success();
  return verifyPairAxis(
      op, *axis, *mesh,
      "Collective arrivals only support (2, 1, 1)-shaped clusters.");
}

bool mlir::mgpu::isPairOp(Operation *op) {
  if (auto copy = dyn_cast<CopyGmemToSmemOp>(op))
    return copy.getPartitioned().has_value();
  if (auto mma = dyn_cast<Tcgen05MmaOp>(op))
    return mma.getCollectiveAxis().has_value();
  if (auto commit = dyn_cast<Tcgen05CommitArriveOp>(op))
    return commit.getCollectiveAxis().has_value();
  return false;
}
