//===- MGPUAttrs.cpp - Attributes of the mgpu dialect ---------------------===//
//
// Parsers and printers for the bracketed list parameters of the mgpu
// attributes, the attribute verifiers (mesh rules S12-S17, block specs,
// compiler params, targets) and the mesh's axis queries.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mgpu;

//===----------------------------------------------------------------------===//
// List parameters
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::mgpu::parseInt64(AsmParser &parser) {
  // parseInteger accepts `true` / `false` as the 1-bit integers -1 and 0.
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("true")) ||
      succeeded(parser.parseOptionalKeyword("false")))
    return parser.emitError(loc, "expected an integer, got a boolean");
  int64_t value = 0;
  if (parser.parseInteger(value))
    return failure();
  return value;
}

/// A bracketed, comma-separated list of what `parseElement` parses.
template <typename T>
static FailureOr<SmallVector<T>>
parseList(AsmParser &parser, function_ref<FailureOr<T>()> parseElement) {
  SmallVector<T> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       FailureOr<T> value = parseElement();
                                       if (failed(value))
                                         return failure();
                                       values.push_back(*value);
                                       return success();
                                     }))
    return failure();
  return values;
}

/// Prints `values` as a bracketed, comma-separated list, each value as
/// `printElement` prints it.
template <typename T, typename PrintElement>
static void printList(AsmPrinter &printer, ArrayRef<T> values,
                      PrintElement printElement) {
  printer << '[';
  llvm::interleaveComma(values, printer, printElement);
  printer << ']';
}

FailureOr<SmallVector<int64_t>> mlir::mgpu::parseI64List(AsmParser &parser) {
  return parseList<int64_t>(parser, [&] { return parseInt64(parser); });
}

FailureOr<SmallVector<int64_t>> mlir::mgpu::parseBlockShape(AsmParser &parser) {
  return parseList<int64_t>(parser, [&]() -> FailureOr<int64_t> {
    if (succeeded(parser.parseOptionalQuestion()))
      return ShapedType::kDynamic;
    return parseInt64(parser);
  });
}

void mlir::mgpu::printBlockShape(AsmPrinter &printer, ArrayRef<int64_t> shape) {
  printList(printer, shape, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      printer << '?';
    else
      printer << size;
  });
}

void mlir::mgpu::printI64List(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printList(printer, values, [&](int64_t value) { printer << value; });
}

FailureOr<SmallVector<StringAttr>>
mlir::mgpu::parseNameList(AsmParser &parser) {
  return parseList<StringAttr>(parser, [&]() -> FailureOr<StringAttr> {
    std::string name;
    if (parser.parseString(&name))
      return failure();
    return StringAttr::get(parser.getContext(), name);
  });
}

void mlir::mgpu::printNameList(AsmPrinter &printer,
                               ArrayRef<StringAttr> names) {
  printList(printer, names, [&](StringAttr name) { printer << name; });
}

FailureOr<SmallVector<DimensionSemantics>>
mlir::mgpu::parseSemanticsList(AsmParser &parser) {
  return parseList<DimensionSemantics>(
      parser, [&]() -> FailureOr<DimensionSemantics> {
        SMLoc loc = parser.getCurrentLocation();
        StringRef keyword;
        if (parser.parseKeyword(&keyword))
          return failure();
        std::optional<DimensionSemantics> value =
            symbolizeDimensionSemantics(keyword);
        if (!value) {
          parser.emitError(loc, "expected 'parallel' or 'sequential', got '")
              << keyword << "'";
          return failure();
        }
        return *value;
      });
}

void mlir::mgpu::printSemanticsList(AsmPrinter &printer,
                                    ArrayRef<DimensionSemantics> values) {
  printList(printer, values, [&](DimensionSemantics value) {
    printer << stringifyDimensionSemantics(value);
  });
}

FailureOr<SmallVector<BlockIndexing>>
mlir::mgpu::parseIndexingList(AsmParser &parser) {
  return parseList<BlockIndexing>(parser, [&]() -> FailureOr<BlockIndexing> {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<BlockIndexing> value = symbolizeBlockIndexing(keyword);
    if (!value) {
      parser.emitError(loc, "expected 'blocked', 'squeezed' or 'element', "
                            "got '")
          << keyword << "'";
      return failure();
    }
    return *value;
  });
}

void mlir::mgpu::printIndexingList(AsmPrinter &printer,
                                   ArrayRef<BlockIndexing> values) {
  printList(printer, values, [&](BlockIndexing value) {
    printer << stringifyBlockIndexing(value);
  });
}

FailureOr<bool> mlir::mgpu::parseBool(AsmParser &parser) {
  if (succeeded(parser.parseOptionalKeyword("true")))
    return true;
  if (succeeded(parser.parseOptionalKeyword("false")))
    return false;
  return parser.emitError(parser.getCurrentLocation(),
                          "expected 'true' or 'false'");
}

FailureOr<SmallVector<Attribute>>
mlir::mgpu::parseTransformList(AsmParser &parser) {
  return parseList<Attribute>(parser, [&]() -> FailureOr<Attribute> {
    SMLoc loc = parser.getCurrentLocation();
    Attribute attr;
    if (parser.parseAttribute(attr))
      return failure();
    if (!isa<TileTransformAttr, SwizzleTransformAttr, TransposeTransformAttr>(
            attr)) {
      parser.emitError(loc, "expected a block transform (#mgpu.tile, "
                            "#mgpu.swizzle or #mgpu.transpose), got ")
          << attr;
      return failure();
    }
    return attr;
  });
}

void mlir::mgpu::printTransformList(AsmPrinter &printer,
                                    ArrayRef<Attribute> transforms) {
  printList(printer, transforms,
            [&](Attribute attr) { printer.printAttribute(attr); });
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

SmallVector<int64_t> MeshAttr::getShape() const {
  SmallVector<int64_t> shape(getGrid());
  llvm::append_range(shape, getCluster());
  if (std::optional<int64_t> threads = getNumThreads())
    shape.push_back(*threads);
  return shape;
}

SmallVector<std::pair<StringAttr, int64_t>> MeshAttr::getNamedAxes() const {
  SmallVector<std::pair<StringAttr, int64_t>> axes;
  for (auto [name, size] : llvm::zip(getGridNames(), getGrid()))
    axes.emplace_back(name, size);
  for (auto [name, size] : llvm::zip(getClusterNames(), getCluster()))
    axes.emplace_back(name, size);
  if (getThreadName() && getNumThreads())
    axes.emplace_back(getThreadName(), *getNumThreads());
  return axes;
}

std::optional<int64_t> MeshAttr::getAxisSize(StringRef name) const {
  for (auto [axis, size] : getNamedAxes())
    if (axis.getValue() == name)
      return size;
  return std::nullopt;
}

LogicalResult
MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                 ArrayRef<int64_t> grid, ArrayRef<StringAttr> gridNames,
                 ArrayRef<int64_t> cluster, ArrayRef<StringAttr> clusterNames,
                 std::optional<int64_t> numThreads, StringAttr threadName) {
  // S12-S16 carry JAX's messages; the order follows JAX's checks.
  if (cluster.size() > 3)
    return emitError() << "cluster= must be at most 3D";
  // An absent list has length 0, as in JAX.
  if (gridNames.size() != grid.size()) {
    InFlightDiagnostic diag = emitError()
                              << "grid_names must have the same length as grid";
    diag.attachNote() << "name each of the " << grid.size()
                      << " grid axes, e.g. grid_names = [\"i\"]";
    return diag;
  }
  if (clusterNames.size() != cluster.size()) {
    InFlightDiagnostic diag =
        emitError() << "cluster_names must have the same length as cluster";
    diag.attachNote() << "name each of the " << cluster.size()
                      << " cluster axes, e.g. cluster_names = [\"c\"]";
    return diag;
  }
  if (numThreads.has_value() != static_cast<bool>(threadName)) {
    InFlightDiagnostic diag = emitError()
                              << "num_threads and thread_name must be either "
                                 "both set or both None";
    diag.attachNote() << "set both (e.g. num_threads = 2, thread_name = "
                         "\"wg\"), or neither for one warpgroup per CTA";
    return diag;
  }
  // S16 at JAX's limit, the most any profile accepts: an attribute does not
  // know its profile. The extended profile's limit (8) is checked where a
  // kernel op uses the mesh (verifyMeshThreads).
  if (numThreads && *numThreads > kJaxMaxPallasThreads)
    return emitTooManyThreads(emitError(), *numThreads, kJaxMaxPallasThreads);
  // S17: sizes and names.
  auto checkSizes = [&](StringRef what, ArrayRef<int64_t> sizes) {
    for (auto [i, size] : llvm::enumerate(sizes)) {
      if (size > 0)
        continue;
      emitError() << "mesh " << what << " size #" << i
                  << " must be positive, got " << size;
      return failure();
    }
    return success();
  };
  if (failed(checkSizes("grid", grid)) ||
      failed(checkSizes("cluster", cluster)))
    return failure();
  if (numThreads && *numThreads <= 0)
    return emitError() << "mesh num_threads must be positive, got "
                       << *numThreads;
  llvm::StringSet<> seen;
  SmallVector<StringAttr> names(gridNames);
  llvm::append_range(names, clusterNames);
  if (threadName)
    names.push_back(threadName);
  for (StringAttr name : names) {
    if (name.getValue().empty())
      return emitError() << "mesh axis names must not be empty";
    if (!seen.insert(name.getValue()).second)
      return emitError() << "mesh axis name \"" << name.getValue()
                         << "\" is used more than once";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// BlockSpecAttr
//===----------------------------------------------------------------------===//

int64_t BlockSpecAttr::getSwizzleBytes() const {
  for (Attribute transform : getTransforms())
    if (auto swizzle = dyn_cast<SwizzleTransformAttr>(transform))
      return swizzle.getBytes();
  return 0;
}

bool BlockSpecAttr::hasUnblockedDims() const {
  return llvm::any_of(getIndexing(), [](BlockIndexing indexing) {
    return indexing != BlockIndexing::blocked;
  });
}

SmallVector<int64_t> BlockSpecAttr::getBodyShape() const {
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(getShape()))
    if (getIndexingOf(d) != BlockIndexing::squeezed)
      shape.push_back(size);
  return shape;
}

/// The rules of `indexing`: one entry per dimension, squeezed dimensions of
/// size 1, and only blocked dimensions under a tiling (whose tiles would
/// otherwise straddle a dimension the body does not see).
static LogicalResult
verifyIndexing(function_ref<InFlightDiagnostic()> emitError,
               ArrayRef<int64_t> shape, MemorySpace memorySpace,
               ArrayRef<Attribute> transforms,
               ArrayRef<BlockIndexing> indexing) {
  if (indexing.empty())
    return success();
  if (indexing.size() != shape.size())
    return emitError() << "block indexing has " << indexing.size()
                       << " entries but the block shape has rank "
                       << shape.size();
  bool unblocked = false;
  for (auto [d, kind] : llvm::enumerate(indexing)) {
    if (kind == BlockIndexing::blocked)
      continue;
    unblocked = true;
    if (kind == BlockIndexing::squeezed && shape[d] != 1) {
      InFlightDiagnostic diag = emitError()
                                << "squeezed block dimension #" << d
                                << " must have size 1, got " << shape[d];
      diag.attachNote() << "JAX's None / pl.Squeezed() is a window of one "
                           "element that the body does not see";
      return diag;
    }
  }
  if (unblocked && memorySpace != MemorySpace::smem)
    return emitError() << "a gmem block is the whole array; squeezed and "
                          "element dimensions apply to staged (smem) blocks";
  for (Attribute attr : transforms) {
    auto tile = dyn_cast<TileTransformAttr>(attr);
    if (!tile)
      continue;
    size_t first = shape.size() - tile.getTiling().size();
    for (size_t d = first; d < shape.size(); ++d)
      if (indexing[d] == BlockIndexing::squeezed)
        return emitError() << "squeezed block dimension #" << d
                           << " is tiled by " << tile
                           << "; tile only the dimensions the body sees";
  }
  return success();
}

LogicalResult
BlockSpecAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, AffineMapAttr indexMap,
                      MemorySpace memorySpace, ArrayRef<Attribute> transforms,
                      int64_t delayRelease, ArrayRef<BlockIndexing> indexing,
                      ArrayAttr collectiveAxes) {
  if (!indexMap)
    return emitError() << "block_spec requires an index_map";
  if (collectiveAxes) {
    if (collectiveAxes.empty() ||
        !llvm::all_of(collectiveAxes, llvm::IsaPred<StringAttr>))
      return emitError() << "collective_axes must be a non-empty list of "
                            "cluster axis names, got "
                         << collectiveAxes;
    if (memorySpace != MemorySpace::smem)
      return emitError() << "collective_axes multicast a block staged in "
                            "shared memory, not a gmem block";
  }
  if (delayRelease < 0)
    return emitError() << "delay_release must be at least 0, got "
                       << delayRelease;
  if (delayRelease > 0 && memorySpace != MemorySpace::smem)
    return emitError() << "delay_release applies to blocks staged in shared "
                          "memory, not to a gmem block";
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(size)) {
      if (memorySpace == MemorySpace::smem)
        return emitError() << "a staged (smem) block needs a static shape; "
                              "size #"
                           << i << " is '?'";
      continue;
    }
    if (size <= 0)
      return emitError() << "block shape size #" << i
                         << " must be positive, got " << size;
  }
  AffineMap map = indexMap.getValue();
  if (map.getNumResults() != shape.size()) {
    InFlightDiagnostic diag =
        emitError() << "block index_map has " << map.getNumResults()
                    << " results but the block shape has rank " << shape.size();
    diag.attachNote() << "the index map returns one block index per "
                         "dimension of the block";
    return diag;
  }
  if (failed(verifyIndexMapDivisors(emitError, map)))
    return failure();
  if (!transforms.empty() && memorySpace != MemorySpace::smem)
    return emitError() << "transforms describe the shared-memory layout of a "
                          "staged block; a gmem block has none";
  if (failed(
          verifyIndexing(emitError, shape, memorySpace, transforms, indexing)))
    return failure();
  return verifyBlockTransforms(emitError, shape, transforms);
}

LogicalResult
mlir::mgpu::verifyBlockTransforms(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape,
                                  ArrayRef<Attribute> transforms) {
  // The shape each transform sees: tiling appends the tile dimensions.
  SmallVector<int64_t> current(shape);
  bool swizzled = false, tiled = false, transposed = false;
  for (Attribute attr : transforms) {
    if (swizzled)
      return emitError() << "#mgpu.swizzle must be the last block transform";
    if (auto tile = dyn_cast<TileTransformAttr>(attr)) {
      if (tiled || transposed)
        return emitError() << "#mgpu.tile must come first and only once "
                              "among the block transforms";
      tiled = true;
      ArrayRef<int64_t> tiling = tile.getTiling();
      if (tiling.empty() || tiling.size() > current.size())
        return emitError() << "#mgpu.tile<" << formatTuple(tiling)
                           << "> must tile between 1 and " << current.size()
                           << " trailing dimensions of the block "
                           << formatTuple(shape);
      size_t first = current.size() - tiling.size();
      SmallVector<int64_t> tiledShape(current.begin(), current.begin() + first);
      for (auto [i, t] : llvm::enumerate(tiling)) {
        if (t <= 0 || current[first + i] % t)
          return emitError()
                 << "#mgpu.tile<" << formatTuple(tiling)
                 << "> does not divide the block " << formatTuple(shape);
        tiledShape.push_back(current[first + i] / t);
      }
      llvm::append_range(tiledShape, tiling);
      current = tiledShape;
      continue;
    }
    if (auto transpose = dyn_cast<TransposeTransformAttr>(attr)) {
      if (transposed)
        return emitError() << "only one #mgpu.transpose per block";
      transposed = true;
      ArrayRef<int64_t> permutation = transpose.getPermutation();
      SmallVector<bool> seen(current.size(), false);
      bool valid = permutation.size() == current.size();
      for (int64_t p : permutation) {
        if (!valid || p < 0 || p >= static_cast<int64_t>(current.size()) ||
            seen[p]) {
          valid = false;
          break;
        }
        seen[p] = true;
      }
      if (!valid)
        return emitError() << "#mgpu.transpose<" << formatTuple(permutation)
                           << "> is not a permutation of the " << current.size()
                           << " dimensions of " << formatTuple(current);
      SmallVector<int64_t> permuted;
      for (int64_t p : permutation)
        permuted.push_back(current[p]);
      current = permuted;
      continue;
    }
    swizzled = true;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CompilerParamsAttr
//===----------------------------------------------------------------------===//

LogicalResult CompilerParamsAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<DimensionSemantics> dimensionSemantics, int64_t maxConcurrentSteps,
    bool approxMath, bool unsafeNoAutoBarriers,
    LoweringSemantics loweringSemantics, int64_t profileSpace,
    StringRef profileDir, bool profileBoundsCheck) {
  if (maxConcurrentSteps < 1)
    return emitError() << "max_concurrent_steps must be at least 1, got "
                       << maxConcurrentSteps;
  if (profileSpace < 0)
    return emitError() << "profile_space must be non-negative, got "
                       << profileSpace;
  // JAX's rule and words (jax/_src/pallas/mosaic_gpu/core.py,
  // CompilerParams.__post_init__): the profiler needs both.
  if ((profileSpace != 0) != !profileDir.empty())
    return emitError()
           << "Either both profile_space and profile_dir must be set, or "
              "neither.";
  return success();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip, Profile profile) {
  if (TargetInfo::lookup(chip))
    return success();
  InFlightDiagnostic diag = emitError() << "unknown chip \"" << chip << "\"";
  diag.attachNote() << "known chips: "
                    << llvm::join(llvm::map_range(TargetInfo::getAll(),
                                                  [](const TargetInfo &info) {
                                                    return info.chip;
                                                  }),
                                  ", ");
  return diag;
}

//===----------------------------------------------------------------------===//
// Block transforms
//===----------------------------------------------------------------------===//

LogicalResult
TileTransformAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> tiling) {
  if (tiling.empty())
    return emitError() << "#mgpu.tile needs at least one tile dimension";
  for (auto [i, size] : llvm::enumerate(tiling))
    if (size <= 0)
      return emitError() << "tile size #" << i << " must be positive, got "
                         << size;
  return success();
}

LogicalResult
SwizzleTransformAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             int64_t bytes) {
  if (bytes != 32 && bytes != 64 && bytes != 128)
    return emitError() << "#mgpu.swizzle<" << bytes
                       << "> must swizzle 32, 64 or 128 bytes";
  return success();
}

LogicalResult
TransposeTransformAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> permutation) {
  if (permutation.empty())
    return emitError() << "#mgpu.transpose needs a permutation";
  return success();
}
