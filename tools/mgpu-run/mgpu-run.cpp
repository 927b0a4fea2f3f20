//===- mgpu-run.cpp - Compile and run an mgpu program ---------------------===//
//
// mgpu-run FILE -e main [--backend=auto|cpu|emulate|cuda] [--shared-libs=...]
// mgpu-run FILE -e main --emit-executable -o EXE [--backend=cuda|cpu]
//
// Parses a module, checks the entry function (no arguments, no results),
// lowers the module for the chosen backend and runs the entry in-process
// with the MLIR ExecutionEngine, so printMemref* and vector.print output
// appear as with mlir-runner. `auto` picks CUDA when a driver and a device
// answer and the GPU lowering is available, else the CPU interpret lowering;
// --verbose says which and why. The MLIR runner utility libraries are loaded
// by default, so a test needs no --shared-libs for printMemref.
//
// With --emit-executable the program is compiled ahead of time instead
// (Executable.cpp): for the GPU by default (no device needed to compile), or
// for interpret mode with --backend=cpu.
//
//===----------------------------------------------------------------------===//

#include "Executable.h"
#include "mgpu/Host/EmulatorChecks.h"
#include "mgpu/InitAll.h"
#include "mgpu/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Remarks.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace llvm;

namespace {
enum class Backend { Auto, CPU, CUDA, Emulate };

// mgpu-run's own options, by what they are about; --help shows only these
// (LLVM's own, for its targets and passes, stay under --help-hidden).
cl::OptionCategory runCategory("Running a program");
cl::OptionCategory compileCategory("Compiling its kernels");
cl::OptionCategory emulatorCategory("The GPU emulator (--backend=emulate)");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input file>"),
                                   cl::init("-"), cl::cat(runCategory));
cl::opt<std::string> entryPoint("e",
                                cl::desc("Function to run (no arguments, "
                                         "no results)"),
                                cl::init("main"), cl::cat(runCategory));
cl::opt<Backend> backend(
    "backend", cl::desc("Where to run the kernels"), cl::init(Backend::Auto),
    cl::values(clEnumValN(Backend::Auto, "auto",
                          "cuda when a driver and a device answer, else cpu"),
               clEnumValN(Backend::CPU, "cpu", "CPU interpret lowering"),
               clEnumValN(Backend::CUDA, "cuda", "NVIDIA GPU"),
               clEnumValN(Backend::Emulate, "emulate",
                          "the GPU lowering's kernels on host threads, one "
                          "per CUDA thread (slow; tests the GPU lowering "
                          "without a GPU)")),
    cl::cat(runCategory));
cl::list<std::string> sharedLibs("shared-libs",
                                 cl::desc("Libraries to load before running"),
                                 cl::CommaSeparated, cl::cat(runCategory));
cl::opt<std::string>
    mpmdForm("mpmd-form",
             cl::desc("How mpmd_map pairs share a GPU launch (cuda and emulate "
                      "backends): auto, warp-specialized or cta-partitioned"),
             cl::init("auto"), cl::cat(compileCategory));
cl::opt<bool> tensorCores(
    "tensor-cores",
    cl::desc("cuda backend on sm_90a: mgpu.wgmma on the tensor cores "
             "(wgmma.mma_async) where they can run it; emulate backend: the "
             "same lowering, its MMAs computed lane by lane (default on; "
             "--tensor-cores=0: ordinary instructions everywhere)"),
    cl::init(true), cl::cat(compileCategory));
cl::opt<bool> tensorCoreRemarks(
    "tensor-core-remarks",
    cl::desc("Report each contraction or wgmma that stays off the tensor "
             "cores, and why (the remarks of category mgpu-tensor-cores; "
             "mgpu-opt shows them with --remarks-filter-missed="
             "mgpu-tensor-cores --remark-format=emitRemark)"),
    cl::cat(compileCategory));
cl::opt<std::string> checks(
    "check",
    cl::desc("emulate backend: the emulator's hazard checks, each reported "
             "at its op with exit status 1: all (default), none, or a "
             "comma-separated list of races (shared-memory data races "
             "between warps), async (async-proxy hazards: commit_smem, "
             "copies and wgmma in flight), barriers (mbarrier misuse, "
             "deadlocks at once), init (reads of never-written shared "
             "memory), bounds (accesses outside the CTA's shared memory)"),
    cl::init("all"), cl::cat(emulatorCategory));
cl::opt<std::string> emulateSeed(
    "emulate-seed",
    cl::desc("emulate backend: run a seeded schedule of the emulator's async "
             "operations (when TMA copies land and copies out read shared "
             "memory); without it, the one deterministic schedule"),
    cl::value_desc("N"), cl::cat(emulatorCategory));
cl::opt<unsigned> emulateSchedules(
    "emulate-schedules",
    cl::desc("emulate backend: run the program under K seeded schedules "
             "(seeds N..N+K-1, N from --emulate-seed or 1), each in its own "
             "process; fails, naming the seed, when one fails or prints "
             "other output than the first (default 1)"),
    cl::value_desc("K"), cl::init(1), cl::cat(emulatorCategory));
cl::opt<bool> verbose("verbose", cl::desc("Say which backend runs and why"),
                      cl::cat(runCategory));
// `-O2` as compilers spell it (`-O 2` and `-O=2` work too).
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                           cl::Prefix, cl::init(3), cl::cat(compileCategory));
cl::opt<bool> emitExecutable(
    "emit-executable",
    cl::desc("Compile the program into a standalone executable (-o) instead "
             "of running it: for the GPU unless --backend=cpu"),
    cl::cat(runCategory));
cl::opt<std::string> outputFilename("o", cl::desc("The executable to write"),
                                    cl::value_desc("file"),
                                    cl::cat(runCategory));

int fail(const Twine &message) {
  WithColor::error(errs(), "mgpu-run") << message << "\n";
  return 1;
}

/// Runs `entry` under each seeded schedule of the emulator, seeds `first`
/// on, each in a child process (a failed check ends its process) with
/// MGPU_EMULATE_SEED set (lib/Runtime/EmuAsync.cpp). The first schedule's
/// output is printed; every schedule that fails or prints other lines (in
/// any order: the debug prints of several threads have none) is reported
/// with its seed, so a test sees which schedules catch a bug.
int runSchedules(void (*entry)(void **), uint64_t first, unsigned count) {
  auto sortedLines = [](StringRef text) {
    SmallVector<StringRef> lines;
    text.split(lines, '\n');
    llvm::sort(lines);
    return lines;
  };
  std::string expected;
  int result = 0;
  for (unsigned i = 0; i < count; ++i) {
    uint64_t seed = first + i;
    std::fflush(stdout);
    std::fflush(stderr);
    int fds[2];
    if (pipe(fds) != 0)
      return fail("--emulate-schedules: cannot make a pipe");
    pid_t child = fork();
    if (child < 0)
      return fail("--emulate-schedules: cannot fork");
    if (child == 0) {
      // A schedule does not outlive mgpu-run (a test's timeout kills it).
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      close(fds[0]);
      dup2(fds[1], STDOUT_FILENO);
      close(fds[1]);
      setenv("MGPU_EMULATE_SEED", std::to_string(seed).c_str(), 1);
      entry(nullptr);
      std::fflush(stdout);
      outs().flush();
      _exit(0);
    }
    close(fds[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof(buffer))) != 0;) {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        break;
      output.append(buffer, size_t(n));
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
      ;
    if (i == 0) {
      expected = output;
      std::fwrite(output.data(), 1, output.size(), stdout);
      std::fflush(stdout);
    }
    std::string rerun =
        "; rerun it with --emulate-seed " + std::to_string(seed);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      result = fail("the emulator's schedule with seed " + Twine(seed) +
                    " failed (" +
                    (WIFEXITED(status)
                         ? "exit status " + std::to_string(WEXITSTATUS(status))
                         : "signal " + std::to_string(WTERMSIG(status))) +
                    ")" + rerun);
    else if (sortedLines(output) != sortedLines(expected))
      result = fail("the emulator's schedule with seed " + Twine(seed) +
                    " printed other output than seed " + Twine(first) + rerun +
                    "; its output:\n" + output);
  }
  return result;
}

/// The directory holding this tool's libraries (build/lib beside build/bin).
std::string getLibraryDir(const char *argv0) {
  std::string exe =
      sys::fs::getMainExecutable(argv0, reinterpret_cast<void *>(&fail));
  SmallString<256> dir(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(dir, "lib");
  return std::string(dir);
}

/// Asks the mgpu CUDA runtime (loaded with dlopen, so that mgpu-run works
/// where it was not built) whether a driver and a device answer.
bool probeCudaDevice(const std::string &libDir, std::string &reason) {
  SmallString<256> path(libDir);
  sys::path::append(path, "libmgpu_cuda_runtime.so");
  std::string error;
  auto lib = sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
  if (!lib.isValid()) {
    reason = "cannot load " + std::string(path) + ": " + error;
    return false;
  }
  auto hasDevice = reinterpret_cast<bool (*)()>(
      lib.getAddressOfSymbol("mgpuRuntimeHasDevice"));
  auto whyNot = reinterpret_cast<const char *(*)()>(
      lib.getAddressOfSymbol("mgpuRuntimeNoDeviceReason"));
  if (!hasDevice || !whyNot) {
    reason = std::string(path) + " has no device query";
    return false;
  }
  if (hasDevice())
    return true;
  reason = whyNot();
  return false;
}

/// The entry must exist and take and return nothing.
LogicalResult checkEntry(ModuleOp module) {
  auto func = module.lookupSymbol<func::FuncOp>(entryPoint);
  if (!func)
    return module.emitError() << "entry function '@" << entryPoint
                              << "' not found (choose one with -e)";
  if (func.isExternal())
    return func.emitError()
           << "entry function '@" << entryPoint << "' has no body";
  if (func.getNumArguments() != 0 || func.getNumResults() != 0)
    return func.emitError() << "entry function '@" << entryPoint
                            << "' must take no arguments and return nothing, "
                               "got "
                            << func.getFunctionType();
  return success();
}
/// Moves LLVM's and MLIR's options to --help-hidden, so that --help lists
/// mgpu-run's own (HideUnrelatedOptions would hide them from --help-hidden
/// too). The sanitizer build compiles this file without UBSan's vptr check
/// (tools/mgpu-run/CMakeLists.txt).
void hideForeignOptions() {
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    bool ours = llvm::any_of(option->Categories, [](cl::OptionCategory *c) {
      return c == &runCategory || c == &compileCategory ||
             c == &emulatorCategory;
    });
    StringRef name = entry.first;
    bool generic = name == "help" || name == "help-list" || name == "version";
    if (!ours && !generic && option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  mgpu::registerAllMGPUPassesAndPipelines();
  hideForeignOptions();
  cl::ParseCommandLineOptions(argc, argv, "mgpu-run: run an mgpu program\n");
  if (optLevel > 3)
    return fail("-O" + Twine(optLevel.getValue()) +
                ": the optimization level is 0, 1, 2 or 3");
  for (const std::string &library : sharedLibs)
    if (!sys::fs::exists(library))
      return fail("--shared-libs: no such file: " + library);

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  mgpu::registerAllMGPUDialects(registry);
  MLIRContext context(registry);
  if (tensorCoreRemarks) {
    remark::RemarkCategories categories;
    categories.missed = "mgpu-tensor-cores";
    if (failed(remark::enableOptimizationRemarks(
            context, /*streamer=*/nullptr,
            std::make_unique<remark::RemarkEmittingPolicyAll>(), categories,
            /*printAsEmitRemarks=*/true)))
      return fail("--tensor-core-remarks: cannot start the remark engine");
  }

  std::string libDir = getLibraryDir(argv[0]);
  std::string reason;
  bool cuda = false;
  if (emitExecutable) {
    if (outputFilename.empty())
      return fail("--emit-executable needs an output file (-o)");
    if (backend == Backend::Emulate)
      return fail("--emit-executable compiles for the GPU or the CPU, not "
                  "the emulator");
    // Compiling needs no device: the executable runs where one is.
    cuda = backend != Backend::CPU;
  } else if (backend == Backend::Auto || backend == Backend::CUDA)
    cuda = probeCudaDevice(libDir, reason);
  if (backend == Backend::CUDA && !cuda && !emitExecutable)
    return fail("--backend=cuda: no usable CUDA device: " + reason);
  bool emulate = backend == Backend::Emulate;
  {
    std::string error;
    if (!mgpu::parseEmulatorChecks(checks, error))
      return fail("--check: " + error);
  }
  if (verbose && emulate)
    errs() << "mgpu-run: backend emulate (requested)\n";
  else if (verbose)
    errs() << "mgpu-run: backend " << (cuda ? "cuda" : "cpu") << " ("
           << (backend == Backend::CPU    ? std::string("requested")
               : backend == Backend::CUDA ? std::string("requested")
               : emitExecutable ? std::string("compiled ahead of time; no "
                                              "device is probed")
               : cuda           ? std::string("a CUDA driver and device answer")
                                : "no CUDA device: " + reason)
           << ")\n";

  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file)
    return fail(errorMessage);
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(checkEntry(*module)))
    return 1;

  mlir::PassManager pm(&context);
  if (cuda) {
    // Kernels become cubins for the module's chip; the host calls the mgpu*
    // runtime ABI, which libmgpu_cuda_runtime.so implements.
    mgpu::MGPUToBinaryPipelineOptions options;
    options.format = "bin";
    options.mpmdForm = mpmdForm;
    options.tensorCores = tensorCores;
    mgpu::buildMGPUToBinaryPipeline(pm, options);
  } else if (emulate) {
    mgpu::buildMGPUToGPUEmulatorPipeline(pm, mpmdForm, tensorCores, checks);
  } else {
    mgpu::buildMGPUToCPUPipeline(pm, mgpu::MGPUToCPUPipelineOptions());
  }
  if (failed(pm.run(*module)))
    return 1;

  if (emitExecutable) {
    SmallVector<std::string> libraries = {"mgpu_runner_utils"};
    if (cuda)
      libraries.push_back("mgpu_cuda_runtime");
    else
      libraries.append({"mgpu_host_runtime", "omp"});
    std::string error;
    if (failed(mgpu::emitExecutable(*module, entryPoint, outputFilename,
                                    {libDir, MGPU_MLIR_LIB_DIR}, libraries,
                                    optLevel, error)))
      return fail("cannot emit the executable: " + error);
    if (verbose)
      errs() << "mgpu-run: wrote " << outputFilename << " ("
             << (cuda ? "GPU" : "CPU") << ")\n";
    return 0;
  }

  SmallVector<std::string> libs(sharedLibs.begin(), sharedLibs.end());
  if (cuda) {
    SmallString<256> runtime(libDir);
    sys::path::append(runtime, "libmgpu_cuda_runtime.so");
    libs.push_back(std::string(runtime));
  }
  // The host runtime: barriers and bounded waits of kernels run on the host.
  {
    SmallString<256> runtime(libDir);
    sys::path::append(runtime, "libmgpu_host_runtime.so");
    libs.push_back(std::string(runtime));
  }
  // libomp runs the programs of kernels that wait on each other concurrently.
  for (StringRef name :
       {"libmlir_runner_utils.so", "libmlir_c_runner_utils.so", "libomp.so"}) {
    SmallString<256> path(MGPU_MLIR_LIB_DIR);
    sys::path::append(path, name);
    libs.push_back(std::string(path));
  }
  SmallVector<StringRef> libRefs(libs.begin(), libs.end());
  // ExecutionEngineOptions keeps a function_ref: the transformer must
  // outlive the engine's creation.
  std::function<Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(optLevel, 0, nullptr);
  ExecutionEngineOptions options;
  options.transformer = optimize;
  options.sharedLibPaths = libRefs;
  options.jitCodeGenOptLevel =
      static_cast<CodeGenOptLevel>(optLevel.getValue());
  auto engine = mlir::ExecutionEngine::create(*module, options);
  if (!engine)
    return fail("cannot compile the module: " + toString(engine.takeError()));
  // MGPU_EMULATE_SCHEDULES: the default of --emulate-schedules (the lit
  // parameter emulate_schedules sets it for a whole test run) where the
  // command names no schedule.
  unsigned schedules = emulateSchedules;
  if (const char *text = std::getenv("MGPU_EMULATE_SCHEDULES");
      text && !emulateSchedules.getNumOccurrences() &&
      !emulateSeed.getNumOccurrences())
    schedules = std::max(1, std::atoi(text));
  if (emulate && (emulateSeed.getNumOccurrences() || schedules > 1)) {
    uint64_t first = 1;
    if (emulateSeed.getNumOccurrences() &&
        StringRef(emulateSeed).getAsInteger(10, first))
      return fail("--emulate-seed: not a number: " + emulateSeed);
    auto entry = (*engine)->lookupPacked(entryPoint);
    if (!entry)
      return fail("cannot run '@" + entryPoint +
                  "': " + toString(entry.takeError()));
    return runSchedules(*entry, first, std::max(1u, schedules));
  }
  if (Error error = (*engine)->invokePacked(entryPoint))
    return fail("cannot run '@" + entryPoint +
                "': " + toString(std::move(error)));
  return 0;
}
