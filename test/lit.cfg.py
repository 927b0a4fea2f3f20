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
# `not`, `count` and `split-file` at the start of a RUN line come from PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.mgpu_tools_dir, config.llvm_tools_dir]
tools = ["mgpu-opt"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.mgpu_ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.mgpu_ptxas))
