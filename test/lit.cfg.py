# lit configuration of the mgpu test suite.
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MGPU"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mgpu_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mgpu_src_root", config.mgpu_src_root))
config.substitutions.append(("%mgpu_lib_dir", config.mgpu_lib_dir))
config.substitutions.append(("%mgpu_obj_root", config.mgpu_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "ASAN_OPTIONS", "UBSAN_OPTIONS"])
llvm_config.use_default_substitutions()
# `lit -D emulate_schedules=K`: every emulate run of mgpu-run runs K seeded
# schedules of the emulator's async operations (mgpu-run's default of
# --emulate-schedules); a RUN line that names --emulate-schedules keeps it.
emulate_schedules = lit_config.params.get("emulate_schedules")
if emulate_schedules:
    config.environment["MGPU_EMULATE_SCHEDULES"] = emulate_schedules
# `not`, `count` and `split-file` at the start of a RUN line come from PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.mgpu_tools_dir, config.llvm_tools_dir]
tools = ["mgpu-opt", "mgpu-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# %extract_ptx: prints the PTX held by the gpu.binary objects of its input.
import sys

config.substitutions.append(
    ("%extract_ptx", '"%s" "%s"' % (sys.executable, os.path.join(
        config.mgpu_src_root, "utils", "extract-ptx.py"))))

if config.mgpu_ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.mgpu_ptxas))

# The CUDA runtime (lib/Runtime). `mgpu-cuda-runtime`: the library was built
# (it needs cuda.h). `cuda-device`: a CUDA driver and device answer, as told
# by the probe built from test/Runtime/cuda_probe.c; tests that run kernels
# on a GPU require it and are UNSUPPORTED elsewhere.
mgpu_cuda_runtime = os.path.join(config.mgpu_lib_dir, "libmgpu_cuda_runtime.so")
if os.path.exists(mgpu_cuda_runtime):
    config.available_features.add("mgpu-cuda-runtime")
    config.substitutions.append(("%mgpu_cuda_runtime", mgpu_cuda_runtime))
    mgpu_cuda_probe = os.path.join(config.mgpu_obj_root, "test", "Runtime",
                                   "mgpu-cuda-probe")
    if os.path.exists(mgpu_cuda_probe):
        import subprocess
        try:
            probe = subprocess.run([mgpu_cuda_probe], capture_output=True,
                                   timeout=120)
            if probe.returncode == 0:
                config.available_features.add("cuda-device")
        except (OSError, subprocess.TimeoutExpired):
            pass

# %run_on_backends: one RUN line runs a program on every backend this
# machine has (cpu and the GPU emulator always, cuda with a device) and
# checks each output against the test's CHECK lines (utils/run-on-backends.py).
mgpu_backends = ["cpu", "emulate"]
if "cuda-device" in config.available_features:
    mgpu_backends.append("cuda")
config.substitutions.append(
    ("%run_on_backends", '"%s" "%s" --backends=%s --mgpu-run="%s" --filecheck="%s"' % (
        sys.executable,
        os.path.join(config.mgpu_src_root, "utils", "run-on-backends.py"),
        ",".join(mgpu_backends),
        os.path.join(config.mgpu_tools_dir, "mgpu-run"),
        os.path.join(config.llvm_tools_dir, "FileCheck"))))

# Reuse from other MLIR compilers (test/Plugin, test/CAPI, test/Downstream).
# `mgpu-sanitize`: an ASan/UBSan build, whose MGPUPlugin.so the uninstrumented
# stock mlir-opt cannot load.
import lit.util

if lit.util.pythonize_bool(config.mgpu_sanitize):
    config.available_features.add("mgpu-sanitize")
# %mlir_opt: the stock mlir-opt of the MLIR packages, which loads
# MGPUPlugin.so (%mgpu_plugin).
config.substitutions.append(
    ("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(
    ("%mgpu_plugin", os.path.join(config.mgpu_lib_dir, "MGPUPlugin.so")))
config.substitutions.append(
    ("%mgpu_capi_test",
     os.path.join(config.mgpu_obj_root, "test", "CAPI", "mgpu-capi-test")))
# %cmake and the flags that configure a downstream project with this build's
# generator and compiler (and no optimization: it only has to run once).
config.substitutions.append(("%cmake", '"%s"' % config.cmake_command))
config.substitutions.append(
    ("%mgpu_downstream_cmake_flags",
     '-G "%s" -DCMAKE_MAKE_PROGRAM="%s" -DCMAKE_C_COMPILER="%s" '
     '-DCMAKE_CXX_COMPILER="%s" -DCMAKE_BUILD_TYPE=' % (
         config.cmake_generator, config.cmake_make_program,
         config.cmake_c_compiler, config.cmake_cxx_compiler)))
