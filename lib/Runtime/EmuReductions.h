//===- EmuReductions.h - Reduce-stores' element arithmetic -----*- C++ -*-===//
//
// The element arithmetic of the host backends' TMA reduce-stores
// (EmuReductions.cpp). Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_RUNTIME_EMUREDUCTIONS_H
#define MGPU_RUNTIME_EMUREDUCTIONS_H

#include <cstdint>

namespace mgpu::emu {

/// Combines the element at `source` into the one at `target` as reduction
/// `reduction` (the mgpu::TmaReduction value) does for elements of
/// `elementType` (0 f16, 1 bf16, 2 f32, 3 i32, 4 i64). The caller holds the
/// pending copies' lock, so that reduce-stores from any CTA never lose an
/// update.
void combineElement(int64_t elementType, int64_t reduction, char *target,
                    const char *source);

} // namespace mgpu::emu

#endif // MGPU_RUNTIME_EMUREDUCTIONS_H
