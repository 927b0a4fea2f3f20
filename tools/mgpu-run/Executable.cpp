//===- Executable.cpp - mgpu-run --emit-executable ------------------------===//
//
// Ahead-of-time compilation of a lowered host program (LLVM dialect, with
// its kernels embedded as gpu.binary objects) into a standalone executable:
// the module becomes LLVM IR, optimized, compiled into an object file for a
// generic level of the host's architecture (x86-64-v2 on x86-64: SSE4.2, no
// AVX), never for the build host's own CPU, so that the executable runs on
// any x86-64 machine, Intel or AMD, and linked by the system C++ compiler
// driver against the mgpu runtime libraries. The entry function runs from a
// C `main`. The executable looks for its libraries beside itself first
// ($ORIGIN), then in the build tree, so a folder with the executable and the
// libraries can move to another machine. A failed build leaves no output
// file.
//
//===----------------------------------------------------------------------===//

#include "Executable.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace llvm;

/// Renames the entry to `_mgpu_entry` and adds `int main()` calling it.
static LogicalResult addCMain(llvm::Module &module, StringRef entry,
                              std::string &error) {
  llvm::Function *function = module.getFunction(entry);
  if (!function) {
    error = "the lowered module has no function '" + entry.str() + "'";
    return failure();
  }
  function->setName("_mgpu_entry");
  LLVMContext &ctx = module.getContext();
  auto *mainType = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), false);
  auto *mainFunction = llvm::Function::Create(
      mainType, llvm::GlobalValue::ExternalLinkage, "main", module);
  IRBuilder<> builder(llvm::BasicBlock::Create(ctx, "entry", mainFunction));
  builder.CreateCall(function);
  builder.CreateRet(builder.getInt32(0));
  return success();
}

/// The CPU the executables are compiled for: a generic level of the host's
/// architecture, never the host's own CPU (sys::getHostCPUName()), whose
/// features (AVX-512 on a Zen 4 or a Xeon, say) the machine that runs the
/// executable may lack.
static StringRef getGenericCPU(const llvm::Triple &triple) {
  if (triple.getArch() == llvm::Triple::x86_64)
    return "x86-64-v2";
  return "generic";
}

static LogicalResult emitObject(llvm::Module &module, StringRef path,
                                unsigned optLevel, std::string &error) {
  llvm::Triple triple(sys::getProcessTriple());
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  TargetOptions options;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, getGenericCPU(triple), "", options, Reloc::PIC_, std::nullopt,
      static_cast<CodeGenOptLevel>(std::min(optLevel, 3u))));
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());
  if (Error optimized =
          makeOptimizingTransformer(optLevel, 0, machine.get())(&module)) {
    error = toString(std::move(optimized));
    return failure();
  }
  std::error_code code;
  ToolOutputFile object(path, code, sys::fs::OF_None);
  if (code) {
    error = "cannot write " + path.str() + ": " + code.message();
    return failure();
  }
  legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, object.os(), nullptr,
                                   CodeGenFileType::ObjectFile)) {
    error = "the host target cannot emit object files";
    return failure();
  }
  passes.run(module);
  object.keep();
  return success();
}

LogicalResult mlir::mgpu::emitExecutable(ModuleOp module, StringRef entry,
                                         StringRef output,
                                         ArrayRef<std::string> libraryDirs,
                                         ArrayRef<std::string> libraries,
                                         unsigned optLevel,
                                         std::string &error) {
  LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule) {
    error = "cannot translate the lowered module to LLVM IR";
    return failure();
  }
  if (failed(addCMain(*llvmModule, entry, error)))
    return failure();

  SmallString<128> object;
  if (std::error_code code =
          sys::fs::createTemporaryFile("mgpu-run", "o", object)) {
    error = "cannot create a temporary object file: " + code.message();
    return failure();
  }
  FileRemover removeObject(object);
  if (failed(emitObject(*llvmModule, object, optLevel, error)))
    return failure();

  ErrorOr<std::string> driver = sys::findProgramByName("c++");
  if (!driver)
    driver = sys::findProgramByName("g++");
  if (!driver) {
    error = "no C++ compiler driver (c++ or g++) on PATH to link with";
    return failure();
  }
  SmallVector<std::string> args = {*driver, std::string(object), "-o",
                                   output.str(), "-Wl,-rpath,$ORIGIN"};
  for (const std::string &dir : libraryDirs) {
    args.push_back("-L" + dir);
    args.push_back("-Wl,-rpath," + dir);
  }
  for (const std::string &library : libraries)
    args.push_back("-l" + library);
  args.push_back("-lm");
#ifdef MGPU_EXECUTABLE_LINK_FLAGS
  args.push_back(MGPU_EXECUTABLE_LINK_FLAGS);
#endif
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string message;
  int status =
      sys::ExecuteAndWait(*driver, argRefs, std::nullopt, {}, 0, 0, &message);
  if (status != 0) {
    sys::fs::remove(output);
    error = "linking failed (" + std::to_string(status) + ")" +
            (message.empty() ? "" : ": " + message) + ": " +
            llvm::join(argRefs, " ");
    return failure();
  }
  return success();
}
