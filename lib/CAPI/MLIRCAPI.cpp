//===- MLIRCAPI.cpp - The upstream MLIR C API, as a shared library --------===//
//
// libMGPUMLIRCAPI.so has no code of its own: its content is the upstream
// MLIRCAPI* archives, taken whole and resolved against libMLIR.so (see
// CMakeLists.txt for why). A shared library needs one source file.
//
//===----------------------------------------------------------------------===//
