//===- MGPUEnums.td - Enumerations of the mgpu dialect -----*- tablegen -*-===//
//
// Enumerations used as attribute parameters: the semantics of a grid axis,
// the memory space of a block, how a block dimension is indexed, the rule profile of a target, and the
// direction of a register rebalancing, the kind of a vector layout, and
// how an atomic store combines values.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUENUMS_TD
#define MGPU_DIALECT_MGPU_MGPUENUMS_TD

include "mlir/IR/EnumAttr.td"

def MGPU_DimensionSemantics : I32EnumAttr<"DimensionSemantics",
    "how the programs along a grid axis are scheduled", [
      I32EnumAttrCase<"parallel", 0>,
      I32EnumAttrCase<"sequential", 1>
    ]> {
  let cppNamespace = "::mlir::mgpu";
  let genSpecializedAttr = 0;
}

def MGPU_MemorySpace : I32EnumAttr<"MemorySpace",
    "where the block of an operand lives while the body runs", [
      I32EnumAttrCase<"smem", 0>,
      I32EnumAttrCase<"gmem", 1>
    ]> {
  let cppNamespace = "::mlir::mgpu";
  let genSpecializedAttr = 0;
}

// JAX's block dimension kinds (`pl.Blocked`, `None` / `pl.Squeezed`,
// `pl.Element`).
def MGPU_BlockIndexing : I32EnumAttr<"BlockIndexing",
    "how the index map's result for one block dimension is read", [
      I32EnumAttrCase<"blocked", 0>,
      I32EnumAttrCase<"squeezed", 1>,
      I32EnumAttrCase<"element", 2>
    ]> {
  let cppNamespace = "::mlir::mgpu";
  let genSpecializedAttr = 0;
}

// JAX's `plgpu.LoweringSemantics`.
def MGPU_LoweringSemantics : I32EnumAttr<"LoweringSemantics",
    "how JAX lowers a kernel body", [
      I32EnumAttrCase<"warpgroup", 0>,
      I32EnumAttrCase<"lane", 1>
    ]> {
  let cppNamespace = "::mlir::mgpu";
  let genSpecializedAttr = 0;
}

def MGPU_Profile : I32EnumAttr<"Profile",
    "which support rules the verifiers apply", [
      I32EnumAttrCase<"extended", 0>,
      I32EnumAttrCase<"jax", 1>
    ]> {
  let cppNamespace = "::mlir::mgpu";
  let genSpecializedAttr = 0;
}

def MGPU_RegisterChange : I32EnumAttr<"RegisterChange",
    "whether set_max_registers raises or lowers the register budget", [
      I32EnumAttrCase<"increase", 0>,
      I32EnumAttrCase<"decrease", 1>
    ]> {
  let cppNamespace = "::mlir::mgpu";
}

def MGPU_LayoutKind : I32EnumAttr<"LayoutKind",
    "how a vector value is spread over the lanes of a warpgroup", [
      I32EnumAttrCase<"strided", 0>,
      I32EnumAttrCase<"wgmma", 1>,
      I32EnumAttrCase<"splat", 2>,
      I32EnumAttrCase<"wgmma_row", 3>,
      I32EnumAttrCase<"wgmma_8bit", 4>,
      I32EnumAttrCase<"wgmma_upcast_2x", 5>,
      I32EnumAttrCase<"wgmma_upcast_4x", 6>,
      I32EnumAttrCase<"wgmma_transposed", 7>,
      I32EnumAttrCase<"wgmma_col", 8>
    ]> {
  let cppNamespace = "::mlir::mgpu";
  let genSpecializedAttr = 0;
}

// The symbols of the bitwise kinds are spelled out because `and`, `or` and
// `xor` are C++ alternative tokens; the IR keywords are JAX's names.
def MGPU_AtomicKind : I32EnumAttr<"AtomicKind",
    "how an atomic store combines the stored value with memory", [
      I32EnumAttrCase<"add", 0>,
      I32EnumAttrCase<"max", 1>,
      I32EnumAttrCase<"min", 2>,
      I32EnumAttrCase<"bit_and", 3, "and">,
      I32EnumAttrCase<"bit_or", 4, "or">,
      I32EnumAttrCase<"bit_xor", 5, "xor">,
      I32EnumAttrCase<"umax", 6>,
      I32EnumAttrCase<"umin", 7>
    ]> {
  let cppNamespace = "::mlir::mgpu";
}

// The TMA reduce-store kinds of copy_smem_to_gmem: JAX's `reduction_op`
// names (jax/experimental/mosaic/gpu/launch_context.py:43-56). mgpu
// integers are signless, so the integer min/max kinds say how they compare:
// smin/smax signed, umin/umax unsigned (JAX's names); min/max are the float
// kinds.
def MGPU_TmaReduction : I32EnumAttr<"TmaReduction",
    "how a copy out of shared memory combines each element with memory", [
      I32EnumAttrCase<"add", 0>,
      I32EnumAttrCase<"min", 1>,
      I32EnumAttrCase<"max", 2>,
      I32EnumAttrCase<"inc", 3>,
      I32EnumAttrCase<"dec", 4>,
      I32EnumAttrCase<"bit_and", 5, "and">,
      I32EnumAttrCase<"bit_or", 6, "or">,
      I32EnumAttrCase<"bit_xor", 7, "xor">,
      I32EnumAttrCase<"smin", 8>,
      I32EnumAttrCase<"smax", 9>,
      I32EnumAttrCase<"umin", 10>,
      I32EnumAttrCase<"umax", 11>
    ]> {
  let cppNamespace = "::mlir::mgpu";
}

#endif // MGPU_DIALECT_MGPU_MGPUENUMS_TD
