#!/usr/bin/env python3
"""Fails when an #include crosses a module boundary the design forbids (docs/ARCHITECTURE.md).

A source file in a module may include, with quotes: files of its own folder, the contract
headers in include/tessera/ that its module is allowed to see, and the headers its own build
generates. Angle-bracket includes are system and package headers and are not checked, except
that <tessera/...> is treated like "tessera/...". Contracts themselves may only include other
contracts. Run from ctest; prints every violation.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["src", "sampler", "spirv_jit", "raster", "icd"]
# Which modules' contracts (by the module that implements them) each module may use.
ALLOWED = {
    "src": {"src"},
    "sampler": {"src", "sampler"},
    "spirv_jit": {"src", "sampler", "spirv_jit"},
    "raster": {"src", "sampler", "raster", "shader_abi"},
    "icd": {"src", "sampler", "spirv_jit", "raster", "icd"},
}
# Contract header -> the module it belongs to.
CONTRACT_OWNER = {
    "format.h": "src", "cpu_info.h": "src", "thread_pool.h": "src", "log.h": "src",
    "texel_codec.h": "sampler", "compressed.h": "sampler", "blit.h": "sampler", "sampling.h": "sampler",
    "sampling_batch.h": "sampler",
    "sampling_cube.h": "sampler",
    "decoded_texture.h": "sampler",
    "shader_abi.h": "src",  # the kernel ABI is plain data shared by every module
    "transform_feedback.h": "src",  # plain data: spirv_jit fills the layout, raster captures, icd owns
    "blend_unorm8.h": "src",  # the 8-bit blend rule: raster's loops call it, spirv_jit's kernels emit it
    "spirv_jit.h": "spirv_jit",
    "spirv_width_use.h": "spirv_jit",
    "raster.h": "raster", "draw.h": "raster",
}
GENERATED = {
    "icd": {"entrypoints.h", "extensions.h", "feature_set.h", "core_properties.h", "supplement.h", "version.h"},
    "spirv_jit": {"spirv_jit_build.h"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def check() -> list[str]:
    problems = []
    for contract in sorted((ROOT / "include" / "tessera").glob("*.h")):
        if contract.name not in CONTRACT_OWNER:
            problems.append(f"include/tessera/{contract.name}: contract without an owner in tools/check_includes.py")
        for kind, name in INCLUDE.findall(contract.read_text()):
            if kind == '"' and not name.startswith("tessera/"):
                problems.append(f"include/tessera/{contract.name}: includes module internals \"{name}\"")
    for module in MODULES:
        folder = ROOT / module
        if not folder.is_dir():
            continue
        own = {p.name for p in folder.rglob("*.h")}
        for src in sorted(folder.rglob("*")):
            if src.suffix not in (".h", ".cpp", ".inl"):
                continue
            rel = src.relative_to(ROOT)
            for kind, name in INCLUDE.findall(src.read_text(errors="replace")):
                if name.startswith("tessera/"):
                    header = name.split("/", 1)[1]
                    owner = CONTRACT_OWNER.get(header)
                    if owner is None:
                        problems.append(f"{rel}: unknown contract {name}")
                    elif owner not in ALLOWED[module]:
                        problems.append(f"{rel}: {module} may not use the {owner} contract {name}")
                    continue
                if kind == "<":
                    continue
                if "/" in name and name.split("/")[0] in MODULES + [".."]:
                    problems.append(f"{rel}: reaches into another module: \"{name}\"")
                elif pathlib.Path(name).name not in own and name not in GENERATED.get(module, set()):
                    problems.append(f"{rel}: \"{name}\" is neither in {module}/ nor a contract")
    return problems


if __name__ == "__main__":
    found = check()
    for p in found:
        print(p)
    sys.exit(1 if found else 0)
